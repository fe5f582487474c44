// get: reads two declared hosts and one that is not declared yet.
const API = "https://api.example.org";
const CDN = "https://cdn.example.org/img";
const IMAGES = "https://images.example.org/x";

export default async function get(input: { id: string }) {
  const a = await http.fetch(`${API}/items/${input.id}`);
  const b = await http.fetch(`${CDN}/${input.id}.png`);
  const c = await http.fetch(`${IMAGES}/${input.id}`);
  return { type: "stat", value: a.status + b.status + c.status };
}
