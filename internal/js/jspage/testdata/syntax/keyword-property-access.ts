const m = new Map();
export default async function () {
  m.set("a", 1);
  const p = Promise.resolve(1);
  await p.finally(() => {});
  return [m.get("a"), m.delete("a"), typeof p.catch, typeof m.new];
}
