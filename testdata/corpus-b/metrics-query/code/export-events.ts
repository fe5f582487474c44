import { Mixpanel } from "./lib/mixpanel";
import { Residency } from "./lib/sites";
import { withRetry } from "./lib/retry";

export default async function exportEvents(input: { day: string; residency: "us" | "eu" | "in" }) {
  const get = withRetry(http.fetch.bind(http), 2);
  const res = await get(Mixpanel.exportUrl(input.residency as Residency, input.day));
  const text = await res.text();
  return text.split("\n").filter(Boolean).length;
}
