const id = <T,>(x: T): T => x;
const first = <T extends unknown[]>(xs: T) => xs[0];
const pair = async <A, B>(a: A, b: B): Promise<[A, B]> => [a, b];
export default async function () {
  return [id(1), first([2, 3]), await pair("a", 1)];
}
