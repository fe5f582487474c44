function Thing() {
  if (!new.target) return "called";
  this.made = true;
}
class Abstract {
  constructor() { this.kind = new.target.name; }
}
class Concrete extends Abstract {}
export default async function () {
  return [Thing(), new Thing().made, new Concrete().kind];
}
