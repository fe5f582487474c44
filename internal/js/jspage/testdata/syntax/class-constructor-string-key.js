class A {
  "constructor"(x) { this.x = x; }
  ["toString"]() { return "A" + this.x; }
}
export default async function () {
  return String(new A(5));
}
