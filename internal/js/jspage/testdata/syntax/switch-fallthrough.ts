export default async function (input: { k?: string }) {
  switch (input?.k ?? "x") {
    case "a":
    case "x": { const v = 1; return v; }
    default: return 0;
  }
}
