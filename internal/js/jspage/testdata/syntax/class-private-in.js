class Brand {
  #tag;
  static is(x) { return #tag in x; }
}
export default async function () {
  return [Brand.is(new Brand()), Brand.is({})];
}
