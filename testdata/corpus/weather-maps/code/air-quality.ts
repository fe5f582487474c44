import { ENDPOINTS } from "./lib/endpoints";
import { getJSON } from "./lib/http";

export default async function airQuality(input: { lat: number; lon: number }) {
  const data = await getJSON<any>(`${ENDPOINTS.airQuality}?latitude=${input.lat}&longitude=${input.lon}&current=european_aqi,pm2_5`);
  return { aqi: data.current.european_aqi, pm25: data.current.pm2_5 };
}
