export default async function () {
  let x = 3;
  const y = x-->0;
  const z = 1 < 2 && 2 > 1;
  return [y, x, z];
}
