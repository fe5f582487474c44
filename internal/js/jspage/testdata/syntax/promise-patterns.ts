export default async function () {
  const all = await Promise.all([1, 2].map(async (x) => x * 2));
  const s = await Promise.allSettled([Promise.reject(new Error("e")), 1]);
  const any = await Promise.any([Promise.resolve("ok")]);
  return [all, s.map((r) => r.status), any];
}
