function logged<T extends (...a: any[]) => any>(fn: T, ctx: ClassMethodDecoratorContext) {
  return function (this: unknown, ...a: any[]) { return `${String(ctx.name)}:${fn.apply(this, a)}`; } as T;
}
function bound(_v: undefined, ctx: ClassFieldDecoratorContext) {
  return (init: number) => init * 10;
}
class Svc {
  @bound limit = 2;
  @logged
  run(x: number) { return x + this.limit; }
}
export default async function () {
  return new Svc().run(1);
}
