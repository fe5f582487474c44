class Pages {
  *[Symbol.iterator]() { yield 1; yield 2; }
  async *stream() { yield "a"; yield "b"; }
}
export default async function () {
  const out: string[] = [];
  for await (const s of new Pages().stream()) out.push(s);
  return [[...new Pages()], out];
}
