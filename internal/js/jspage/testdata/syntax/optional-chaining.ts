type R = { data?: { items?: string[] }, fn?: () => number };
export default async function () {
  const r: R = { data: {} };
  return [r.data?.items?.[0] ?? null, r.fn?.() ?? null, r?.["data"]?.items?.length ?? 0];
}
