// the decimal string of a BigInt of a million bits (just under QuickJS's size limit): one call, quadratic, ~20 s.
export default function () {
  const x = 7n ** 180000n;
  return (x * x).toString().length;
}
