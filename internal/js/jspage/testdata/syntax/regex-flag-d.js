export default async function () {
  const m = /b(c)/d.exec("abc");
  return m.indices[1];
}
