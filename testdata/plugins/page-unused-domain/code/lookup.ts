export default async function lookup(input: { id?: string }) {
  const res = await http.fetch(input.id ? `https://api.used.dev/items/${input.id}` : "https://api.used.dev/items");
  return { type: "markdown", text: String(res.status) };
}
