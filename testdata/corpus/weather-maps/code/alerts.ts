import { getJSON } from "./lib/http";

const NWS = "https://api.weather.gov";

export default async function alerts({ state }: { state: string }) {
  const data = await getJSON<any>(`${NWS}/alerts/active?area=${encodeURIComponent(state.toUpperCase())}`, { Accept: "application/geo+json" });
  return data.features.map((f: any) => `${f.properties.event}: ${f.properties.headline}`);
}
