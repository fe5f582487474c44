export default async function forecast(input: { city: string; days?: number }) {
  return { type: "markdown", text: `${input.days ?? 1} days for ${input.city}` };
}
