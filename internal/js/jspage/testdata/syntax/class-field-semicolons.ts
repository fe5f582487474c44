class Semi {
  get;
  set;
  static;
  accessor;
  x = 1;
}
export default async function () {
  const a = new Semi() as any;
  return ["get" in a, "set" in a, "static" in a, "accessor" in a, a.x];
}
