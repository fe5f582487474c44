export default async function () {
  let i = 0, j = 10;
  do { i++; } while (i < 3);
  for (let a = 0, b = 1; a < 2; a++, b++) j += b;
  for (const k in { x: 1 }) j += k.length;
  return [i, j];
}
