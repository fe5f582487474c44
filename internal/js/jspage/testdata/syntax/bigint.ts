export default async function () {
  const big = 2n ** 64n;
  const hex = 0xFFn;
  const sum: bigint = big + hex + BigInt(1);
  return sum.toString();
}
