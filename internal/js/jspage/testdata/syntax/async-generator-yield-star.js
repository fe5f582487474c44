async function* inner() { yield 1; yield 2; }
async function* outer() { yield* inner(); yield 3; }
export default async function () {
  const it = outer();
  const a = await it.next();
  const rest = [];
  for await (const x of it) rest.push(x);
  return [a.value, rest];
}
