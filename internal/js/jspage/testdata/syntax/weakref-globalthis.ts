export default async function () {
  const o = {};
  const w = new WeakRef(o);
  const reg = new FinalizationRegistry(() => {});
  reg.register(o, "x");
  return [w.deref() === o, typeof globalThis, typeof structuredClone];
}
