const a = async x => x;
const b = async (x, y) => x + y;
const c = async () => { return await a(1); };
const async = (x) => x * 10;
export default async function () {
  return [await a(1), await b(1, 2), await c(), async(2)];
}
