class Flags {
  static = true;
  async = 1;
  of = "of";
  let = 2;
  yield = 3;
  await = 4;
}
export default async function () {
  const f = new Flags();
  return [f.static, f.async, f.of, f.let, f.yield, f.await];
}
