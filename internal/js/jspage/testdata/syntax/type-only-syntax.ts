import type { Foo } from "./nothing";
export type { Foo };
interface Bar { x: number }
type Fn<T = string> = (x: T) => T;
declare const maybe: number | undefined;
declare function ext(): void;
declare global { interface Window { y: number } }
export default async function (): Promise<number> {
  const b: Bar = { x: 1 };
  const f: Fn = (s) => s;
  return b.x + f("a").length;
}
