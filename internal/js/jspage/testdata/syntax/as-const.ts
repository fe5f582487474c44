const METHODS = ["GET", "POST"] as const;
type M = (typeof METHODS)[number];
const pick = (m: M) => m;
export default async function () {
  return pick(METHODS[1]);
}
