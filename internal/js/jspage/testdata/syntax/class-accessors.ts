class Temp {
  #c = 0;
  get celsius() { return this.#c; }
  set celsius(v: number) { this.#c = v; }
  static get zero() { return new Temp(); }
}
export default async function () {
  const t = Temp.zero;
  t.celsius = 21;
  return t.celsius;
}
