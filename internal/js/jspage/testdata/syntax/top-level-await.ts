const table = await Promise.resolve({ a: 1 });
export default async function () {
  return table.a;
}
