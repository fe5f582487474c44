import { geocode } from "./lib/geo";

export default async ({ q }: { q: string }) => {
  const p = await geocode(q);
  return { lat: Number(p.lat), lon: Number(p.lon), name: p.display_name };
};
