// a regular expression with catastrophic backtracking: 2^60 ways to fail.
export default function () {
  return /^(a|aa)+$/.test("a".repeat(60) + "b");
}
