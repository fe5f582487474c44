// datasetInfo: the catalogue entry, with a cheap reachability probe of the mirror.
export default async function datasetInfo(input: { id: string }) {
  const meta = await http.fetch(`https://data.example.org/api/datasets/${input.id}`);
  const mirror = await http.fetch(`https://mirror.example.org/ping/${input.id}`).catch(() => null);
  const info = (await meta.json()) as { title: string; bytes: number };
  return { type: "stat", value: info.title, label: mirror?.ok ? "mirrored" : "primary only" };
}
