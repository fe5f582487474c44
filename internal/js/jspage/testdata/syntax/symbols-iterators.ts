const tag = Symbol("tag");
const o = { [tag]: 1, *[Symbol.iterator]() { yield 1; } };
export default async function () {
  return [o[tag], [...o], Symbol.for("x").description];
}
