export default async function (input: unknown) {
  const m = new Map<string, number>([["a", 1]]);
  const v = m.get("a")!;
  const o = (input as { q?: string } | null)?.q ?? <string>"none";
  return [v, o];
}
