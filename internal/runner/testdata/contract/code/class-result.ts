class Temperature {
  #c: number;
  constructor(c: number) { this.#c = c; }
  get celsius() { return this.#c; }
}

export default async function classResult() {
  return { now: new Temperature(21) };
}
