import { ENDPOINTS } from "./endpoints";
import { getJSON, withQuery } from "./http";

export interface Place {
  lat: string;
  lon: string;
  display_name: string;
}

export async function geocode(q: string): Promise<Place> {
  const hits = await getJSON<Place[]>(withQuery(`${ENDPOINTS.nominatim}/search`, { q, format: "jsonv2", limit: 1 }));
  if (!hits.length) throw new Error(`nothing found for "${q}"`);
  return hits[0];
}
