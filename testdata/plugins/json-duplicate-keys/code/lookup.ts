export default async function lookup(input: { id: string }) {
  const res = await http.fetch(`https://api.example.com/items/${encodeURIComponent(input.id)}`);
  return await res.json();
}
