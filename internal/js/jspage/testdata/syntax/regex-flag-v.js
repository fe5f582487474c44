export default async function () {
  return /[\p{L}--[a-z]]/v.test("A");
}
