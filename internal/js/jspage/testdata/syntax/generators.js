function* range(n) { for (let i = 0; i < n; i++) yield i; }
function* delegate() { const r = yield* range(2); return r; }
export default async function () {
  return [[...range(3)], [...delegate()]];
}
