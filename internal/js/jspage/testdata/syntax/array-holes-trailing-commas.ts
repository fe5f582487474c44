function f(a: number, b: number,) { return a + b; }
export default async function () {
  const arr = [1, , 3,];
  const o = { a: 1, b: 2, };
  return [f(1, 2,), arr.length, o];
}
