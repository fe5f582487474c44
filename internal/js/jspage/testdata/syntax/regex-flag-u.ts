export default async function () {
  return [/\u{1F600}/u.test("😀"), /\p{L}+/u.exec("héllo!")?.[0]];
}
