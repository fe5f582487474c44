export default async function (input: { x?: number } | null) {
  input ??= {};
  const f = input.x ? (a: number): number => a + 1 : (a: number) => a - 1;
  const g = (input.x as number) > 0 ? () => 1 : () => 2;
  return [f(1), g()];
}
