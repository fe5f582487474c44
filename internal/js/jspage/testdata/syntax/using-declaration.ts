const dispose: symbol = (Symbol as any).dispose ?? Symbol.for("Symbol.dispose");
class Res {
  closed = false;
  [dispose]() { this.closed = true; }
}
export default async function () {
  const r = new Res();
  {
    using held = r;
  }
  return r.closed;
}
