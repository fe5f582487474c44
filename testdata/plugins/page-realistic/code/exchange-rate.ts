// exchangeRate: today's EUR rate for one currency.
const FRANKFURTER = new URL("https://api.frankfurter.app/latest");

export default async (input: { to: string }) => {
  const url = new URL("?from=EUR", FRANKFURTER).href;
  const { rates } = (await (await http.fetch(url)).json()) as { rates: Record<string, number> };
  const rate = rates[input.to.toUpperCase()];
  return rate === undefined
    ? { type: "markdown", text: `No rate for ${input.to}` }
    : { type: "stat", value: rate, label: `EUR → ${input.to.toUpperCase()}` };
};
