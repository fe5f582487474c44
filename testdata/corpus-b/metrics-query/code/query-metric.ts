import { Datadog } from "./lib/datadog";
import { withRetry } from "./lib/retry";
import { siteFromName } from "./lib/sites";

export default async function queryMetric(input: { site: "US1" | "US3" | "US5" | "EU1"; query: string; minutes?: number }) {
  const dd = new Datadog(siteFromName(input.site), withRetry(http.fetch));
  const now = Math.floor(Date.now() / 1000);
  const out = await dd.query(input.query, now - 60 * (input.minutes ?? 60), now);
  return { series: out.series ?? [], status: out.status };
}
