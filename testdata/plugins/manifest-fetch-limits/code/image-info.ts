// imageInfo: reads metadata, then a thumbnail and the original's headers.
export default async function imageInfo(input: { id: string }) {
  const meta = await http.fetch(`https://meta.example.com/v1/${input.id}`);
  const thumb = await http.fetch(`https://thumbs.example.com/${input.id}.jpg`);
  const full = await http.fetch(`https://images.example.com/${input.id}`, { method: "HEAD" });
  const m = (await meta.json()) as { width: number; height: number };
  return { type: "stat", value: `${m.width}×${m.height}`, label: `${full.headers["content-type"]} (thumb ${thumb.status})` };
}
