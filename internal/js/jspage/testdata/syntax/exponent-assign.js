export default async function () {
  let x = 2;
  x **= 10;
  return [x, 2 ** 3 ** 2, (-2) ** 2];
}
