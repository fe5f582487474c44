const strip = (s: string) => s.replace(/^\/+|\/+$/g, "");
export default async function () {
  const a = 4 / 2 / 1;
  return [strip("/a/b/"), a, [/=/].length];
}
