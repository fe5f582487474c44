export default async function (input: { q?: string; limit?: number } | null) {
  const { q = "all", limit = 10 } = input ?? {};
  const [first = "x", , third = 3] = ["a"];
  const { a: { b = 2 } = {} } = {} as any;
  return [q, limit, first, third, b];
}
