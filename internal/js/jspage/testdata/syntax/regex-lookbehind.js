export default async function () {
  return ["$42 €7".match(/(?<=\$)\d+/)[0], "ab".replace(/(?<!a)b/, "x")];
}
