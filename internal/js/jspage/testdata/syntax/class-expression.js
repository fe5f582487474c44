const Mixin = (B) => class extends B { get = 1; static of = 2; };
export default async function () {
  const C = Mixin(class {});
  return [new C().get, C.of];
}
