class Counter {
  #n = 0;
  #bump() { this.#n++; }
  static #instances = 0;
  static #track() { Counter.#instances++; }
  constructor() { Counter.#track(); }
  inc() { this.#bump(); return this.#n; }
  static count() { return Counter.#instances; }
}
export default async function () {
  const c = new Counter();
  c.inc();
  return [c.inc(), Counter.count()];
}
