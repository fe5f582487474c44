const api = { log: null, run(x) { return x * 2; } };
export default async function () {
  api.log?.("never");
  return [api.run?.(2), api.missing?.call(api) ?? null, api?.run(1)];
}
