export default async function () {
  return /a.b/s.test("a\nb");
}
