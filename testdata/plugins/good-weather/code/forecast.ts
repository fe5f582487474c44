// forecast: two hops on api.weather.gov, the point, then its forecast URL.
interface Input {
  lat: number;
  lon: number;
}

interface Period {
  name: string;
  temperature: number;
  temperatureUnit: string;
  shortForecast: string;
}

export default async function forecast(input: Input) {
  const point = await http.fetch(`https://api.weather.gov/points/${input.lat},${input.lon}`);
  if (!point.ok) {
    throw new Error(`no forecast office for ${input.lat},${input.lon} (${point.status})`);
  }
  const office = (await point.json()) as { properties: { gridId: string; gridX: number; gridY: number } };
  const p = office.properties;
  const res = await http.fetch(`https://api.weather.gov/gridpoints/${p.gridId}/${p.gridX},${p.gridY}/forecast`);
  const data = (await res.json()) as { properties: { periods: Period[] } };
  return {
    type: "table",
    columns: ["When", "Temp", "Sky"],
    rows: data.properties.periods.slice(0, 4).map((x) => [x.name, `${x.temperature}°${x.temperatureUnit}`, x.shortForecast]),
  };
}
