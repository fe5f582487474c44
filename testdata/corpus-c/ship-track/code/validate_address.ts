export default async function validate_address({ street, zip, second_opinion = false }: { street: string; zip: string; second_opinion?: boolean }) {
  let endpoint = "https://api.goshippo.com/addresses/";
  const first = await http.fetch(endpoint, { method: "POST", body: { street1: street, zip, country: "US", validate: true } }); //@hosts(api.goshippo.com)
  const shippo = await first.json();
  endpoint = "https://api.easypost.com/v2/addresses";
  if (!second_opinion) return { valid: shippo?.validation_results?.is_valid ?? null, next: endpoint };
  const second = await http.fetch(endpoint, { method: "POST", body: { address: { street1: street, zip }, verify: ["delivery"] } }); //@hosts(api.easypost.com)
  return { valid: shippo?.validation_results?.is_valid ?? null, easypost: (await second.json())?.verifications ?? null };
}
