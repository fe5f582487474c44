const o = { if: 1, class: 2, new: 3, default: 4, import: 5, typeof: 6, await: 7, yield: 8, let: 9, static: 10 };
export default async function () {
  return o.if + o.class + o.new + o.default + o.import + o.typeof + o.await + o.yield + o.let + o.static;
}
