export default async function mapResult() {
  const items = [1, 2, 3].map((n) => ({ n }));
  items.push({ n: 4, when: new Map([["at", "noon"]]) } as any);
  return { items };
}
