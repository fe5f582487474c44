// ky-style JSON helpers shared by the pages.
import { USER_AGENT } from "./endpoints";

export class HTTPError extends Error {
  constructor(public status: number, url: string) {
    super(`HTTP ${status} for ${url}`);
  }
}

export async function getJSON<T = unknown>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await http.fetch(url, { headers: { "User-Agent": USER_AGENT, Accept: "application/json", ...headers } }); //@hosts(api.openweathermap.org, air-quality-api.open-meteo.com, nominatim.openstreetmap.org, api.weather.gov)
  if (res.status !== 200) throw new HTTPError(res.status, url);
  return (await res.json()) as T;
}

export function withQuery(base: string, params: Record<string, string | number>): string {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return `${base}?${qs.toString()}`;
}
