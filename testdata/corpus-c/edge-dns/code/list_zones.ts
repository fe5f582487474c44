import { API, WithBaseURL, WithRetryPolicy } from "./lib/client";
import environments from "./lib/env.json" with { type: "json" };

export default async function ListZones(input: { env: "prod" | "staging"; page?: number }) {
  const cfg = environments[input.env] ?? environments.prod;
  const api = API.NewClient(WithBaseURL(cfg.base), WithRetryPolicy(cfg.retries));
  const resp = await api.makeRequest("GET", `/zones?page=${input.page ?? 1}&per_page=50`);
  return (resp.result ?? []).map((z: { id: string; name: string }) => ({ id: z.id, name: z.name }));
}
