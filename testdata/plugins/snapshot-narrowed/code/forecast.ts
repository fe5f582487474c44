export default async function forecast(input: { city: string }) {
  const res = await http.fetch(`https://api.weather.example/v1/forecast?city=${encodeURIComponent(input.city)}`);
  return { city: input.city, forecast: await res.json() };
}
