enum Color { Red, Green = 5, Blue }
enum Method { Get = "GET", Post = "POST" }
const enum Flag { A = 1 << 0, B = 1 << 1 }
export default async function () {
  return [Color.Blue, Color[5], Method.Get, Flag.A | Flag.B];
}
