export const a = 1;
export let b = 2;
export function c() { return 3; }
export class D { v = 4; }
const e = 5;
export { e as eAlias, e };
export default async function () {
  return a + b + c() + new D().v + e;
}
