interface Shape { area(): number }
abstract class Base implements Shape {
  abstract area(): number;
  describe(): string { return `area=${this.area()}`; }
}
class Sq extends Base {
  constructor(private s: number) { super(); }
  override area() { return this.s ** 2; }
}
export default async function () {
  return new Sq(3).describe();
}
