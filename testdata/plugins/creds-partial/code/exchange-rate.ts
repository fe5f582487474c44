// exchangeRate: one pair.
export default async function exchangeRate(input: { from: string; to: string }) {
  const res = await http.fetch(`https://api.exchangerate.example/latest?base=${input.from}&symbols=${input.to}`);
  const body = (await res.json()) as { rates: Record<string, number> };
  return { type: "stat", value: body.rates[input.to], label: `${input.from} → ${input.to}` };
}
