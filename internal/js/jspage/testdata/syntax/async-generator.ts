async function* pages(n: number) {
  for (let i = 0; i < n; i++) yield i;
}
export default async function () {
  const out: number[] = [];
  for await (const p of pages(3)) out.push(p);
  return out;
}
