import { ENDPOINTS } from "./lib/endpoints";
import { geocode } from "./lib/geo";
import { getJSON, withQuery } from "./lib/http";

export default async function currentWeather({ place, units = "metric" }: { place: string; units?: "metric" | "imperial" }) {
  const { lat, lon, display_name } = await geocode(place);
  const w = await getJSON<any>(withQuery(`${ENDPOINTS.openWeather}/weather`, { lat, lon, units }));
  return `${display_name}: ${w.weather[0].description}, ${w.main.temp}°${units === "metric" ? "C" : "F"}`;
}
