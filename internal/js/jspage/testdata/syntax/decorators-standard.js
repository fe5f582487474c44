function twice(fn, ctx) {
  return function (...a) { return fn.apply(this, a) * 2; };
}
class Calc {
  @twice
  value(x) { return x + 1; }
}
export default async function () {
  return new Calc().value(1);
}
