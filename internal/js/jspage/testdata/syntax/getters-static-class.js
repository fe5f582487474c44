class Env {
  static #vals = { a: 1 };
  static get a() { return Env.#vals.a; }
  static set a(v) { Env.#vals.a = v; }
}
export default async function () {
  Env.a = 5;
  return Env.a;
}
