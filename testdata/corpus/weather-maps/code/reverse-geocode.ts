import { ENDPOINTS } from "./lib/endpoints";
import { getJSON } from "./lib/http";

const { nominatim } = ENDPOINTS;

export default async function reverseGeocode({ lat, lon }: { lat: number; lon: number }) {
  const place = await getJSON<{ display_name: string }>(`${nominatim}/reverse?format=jsonv2&lat=${lat}&lon=${lon}`);
  return place.display_name;
}
