export default function listUnits() {
  return { type: "markdown", text: "m, km, mi, ft" };
}
