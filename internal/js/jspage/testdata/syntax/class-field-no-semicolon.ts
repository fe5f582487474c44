class Asi {
  get
  set
  static
  x = 1
  ["y"] = 2
  *gen() { yield 1 }
}
export default async function () {
  const a = new Asi() as any;
  return ["get" in a, "set" in a, "static" in a, a.x, a.y];
}
