export default async function () {
  const o = { a: 1 };
  let i = (0, 1);
  return ["a" in o, void 0 === undefined, typeof i, delete o.a, i instanceof Number];
}
