import { ENDPOINTS } from "./lib/endpoints";

export default async function forecast({ lat, lon }: { lat: number; lon: number }) {
  const params = new URLSearchParams({
    latitude: lat.toFixed(4),
    longitude: lon.toFixed(4),
    hourly: "temperature_2m,precipitation_probability",
    forecast_days: "2",
  });
  const res = await http.fetch(`${ENDPOINTS.openMeteo}/forecast?${params.toString()}`); //@hosts(api.open-meteo.com)
  const { hourly } = await res.json();
  return hourly.time.slice(0, 24).map((t: string, i: number) => `${t.slice(11)} ${hourly.temperature_2m[i]}°C ${hourly.precipitation_probability[i]}%`);
}
