export default async function () {
  const key = "name";
  const { [key]: value, ["id"]: id = 0, ...rest } = { name: "n", extra: 1 };
  let a, b;
  [a, b] = [1, 2];
  [a, b] = [b, a];
  ({ x: a = 5 } = {});
  return [value, id, rest, a, b];
}
