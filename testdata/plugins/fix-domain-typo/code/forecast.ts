// forecast: one call to the weather API; the key is injected by the broker.
export default async function forecast(input: { city: string }) {
  const res = await http.fetch(`https://weather.example.com/v1/forecast?city=${encodeURIComponent(input.city)}`);
  if (!res.ok) {
    throw new Error(`forecast for ${input.city}: HTTP ${res.status}`);
  }
  const body = (await res.json()) as { summary: string; auth?: string };
  return { type: "markdown", text: body.summary };
}
