export default async function () {
  let v = 1;
  const o = {
    get value() { return v; },
    set value(x) { v = x; },
    get: 1,
    set: 2,
    get ["computed"]() { return "c"; },
    async *gen() { yield 1; },
    async method() { return 1; },
  };
  o.value = 4;
  return [o.value, o.get, o.set, o.computed];
}
