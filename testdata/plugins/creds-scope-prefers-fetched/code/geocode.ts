// geocode: one call to the maps API.
export default async function geocode(input: { address: string }) {
  const res = await http.fetch(`https://maps.example.com/v1/geocode?q=${encodeURIComponent(input.address)}`);
  return { type: "markdown", text: JSON.stringify(await res.json()) };
}
