namespace Util {
  export const prefix = "p:";
  export function tag(s: string) { return prefix + s; }
  export namespace Inner { export const v = 1; }
}
export default async function () {
  return [Util.tag("x"), Util.Inner.v];
}
