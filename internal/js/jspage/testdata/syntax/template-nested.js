export default async function () {
  const items = ["a", "b"];
  return `list: ${items.map((i) => `<${i}${`!`}>`).join("")} ${`\u{41}`}`;
}
