const \u0061bc = 1;
const caf\u00e9 = 2;
const \u{62}ig = 3;
const ñandú = 4;
export default async function () {
  return abc + café + big + ñandú;
}
