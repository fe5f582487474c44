class Point {
  constructor(public readonly x: number, private y: number, protected z = 0) {}
  sum() { return this.x + this.y + this.z; }
}
export default async function () {
  return new Point(1, 2).sum();
}
