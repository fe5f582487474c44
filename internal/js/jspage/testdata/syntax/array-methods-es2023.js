export default async function () {
  const a = [3, 1, 2];
  return [a.at(-1), a.toSorted(), a.findLast((x) => x > 1), Object.hasOwn({ k: 1 }, "k"), a.with(0, 9)];
}
