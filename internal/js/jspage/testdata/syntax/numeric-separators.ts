const MAX = 1_000_000;
const MASK = 0xFF_FF;
const BITS = 0b1010_0101;
const OCT = 0o7_7;
const F = 1_000.5_5;
export default async function () {
  return [MAX, MASK, BITS, OCT, F];
}
