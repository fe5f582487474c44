export default async function noFixture(input: { id?: string }) {
  const id = String(input?.id ?? "42");
  return (await http.fetch(`https://api.example.com/items/${encodeURIComponent(id)}`, {
    headers: { Accept: "application/json" },
  })).status;
}
