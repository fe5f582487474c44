// listCharges: recent charges, with the receipt file of the newest one.
interface Charge {
  id: string;
  amount: number;
  currency: string;
  receipt_url?: string;
}

export default async function listCharges(input: { limit?: number }) {
  const res = await http.fetch(`https://api.stripe.com/v1/charges?limit=${input?.limit ?? 10}`);
  const { data } = (await res.json()) as { data: Charge[] };
  const newest = data[0];
  const receipt = newest ? await http.fetch(`https://files.stripe.com/receipts/${newest.id}`) : null;
  return {
    type: "table",
    columns: ["Id", "Amount"],
    rows: data.map((c) => [c.id, `${(c.amount / 100).toFixed(2)} ${c.currency.toUpperCase()}`]),
    footer: receipt?.ok ? "receipt available" : "",
  };
}
