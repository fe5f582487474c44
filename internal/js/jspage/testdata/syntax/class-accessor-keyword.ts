class Box {
  accessor value = 1;
  static accessor shared = "s";
}
export default async function () {
  const b = new Box();
  b.value = 2;
  return [b.value, Box.shared];
}
