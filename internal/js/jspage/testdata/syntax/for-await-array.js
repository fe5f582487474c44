export default async function () {
  const out = [];
  for await (const v of [Promise.resolve(1), 2]) out.push(v);
  return out;
}
