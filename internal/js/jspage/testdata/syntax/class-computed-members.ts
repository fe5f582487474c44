const key = "dynamic";
class K {
  [key] = 1;
  static [`${key}Static`] = 2;
  [Symbol.iterator]() { return [1, 2][Symbol.iterator](); }
}
export default async function () {
  return [new K()[key], (K as any).dynamicStatic, [...new K()]];
}
