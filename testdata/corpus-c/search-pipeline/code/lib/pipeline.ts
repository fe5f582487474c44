// Requests are built by folding small steps over a spec.
import { j, q } from "./u.js";

export type Spec = { host: string; segments: string[]; params: Record<string, unknown>; headers: Record<string, string> };
export type Step = (s: Spec) => Spec;

export const origin = (host: string): Step => (s) => ({ ...s, host });
export const path = (...segments: string[]): Step => (s) => ({ ...s, segments: s.segments.concat(segments) });
export const param = (k: string, v: unknown): Step => (s) => ({ ...s, params: { ...s.params, [k]: v } });
export const header = (k: string, v: string): Step => (s) => ({ ...s, headers: { ...s.headers, [k]: v } });

export const build = (...steps: Step[]): Spec =>
  steps.reduce((spec, step) => step(spec), { host: "", segments: [], params: {}, headers: {} } as Spec);

export const toUrl = ({ host, segments, params }: Spec): string => {
  const qs = q(params);
  return j("https://".concat(host), ...segments) + (qs ? "?" + qs : "");
};

export async function run(spec: Spec, body?: unknown) {
  const res = await http.fetch(toUrl(spec), { //@hosts(xyz-1.a1.typesense.net, xyz-1.b1.typesense.net, xyz-1.c1.typesense.net, ms-docs.meilisearch.io)
    method: body ? "POST" : "GET",
    headers: spec.headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
}
