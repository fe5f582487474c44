export default async function forecast(input: { city: string; days?: number }) {
  return { type: "markdown", text: `Forecast for ${input.city}` };
}
