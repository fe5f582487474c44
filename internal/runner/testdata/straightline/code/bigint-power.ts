// one BigInt power with three million digits and its decimal string.
export default function () {
  return (7n ** 3000000n).toString().length;
}
