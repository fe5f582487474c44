function sum(...xs: number[]) { return xs.reduce((a, b) => a + b, 0); }
export default async function () {
  const a = [1, 2];
  const { x, ...others } = { x: 1, y: 2, z: 3 };
  return [sum(...a, 3), Math.max(...a), others];
}
