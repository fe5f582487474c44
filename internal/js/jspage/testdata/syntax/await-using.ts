const dispose: symbol = (Symbol as any).asyncDispose ?? Symbol.for("Symbol.asyncDispose");
export default async function () {
  let closed = false;
  {
    await using h = { async [dispose]() { closed = true; } };
  }
  return closed;
}
