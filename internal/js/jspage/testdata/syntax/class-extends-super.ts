class Base {
  greet() { return "base"; }
}
class Child extends Base {
  greet = () => "field:" + super.greet();
}
export default async function () {
  return new Child().greet();
}
