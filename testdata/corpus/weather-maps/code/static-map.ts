import { ENDPOINTS } from "./lib/endpoints";

const STYLE = "mapbox/streets-v12";

export default async function staticMap(input: { lat: number; lon: number; zoom?: number }) {
  const url = [ENDPOINTS.mapbox, "styles/v1", STYLE, "static", `${input.lon},${input.lat},${input.zoom ?? 12}`, "600x400"].join("/");
  const res = await http.fetch(url, { method: "HEAD" }); //@hosts(api.mapbox.com)
  return res.status === 200 ? { type: "image", url } : `map unavailable (HTTP ${res.status})`;
}
