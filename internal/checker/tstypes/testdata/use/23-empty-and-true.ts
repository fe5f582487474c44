import type { Input } from "../golden/23-empty-and-true";

export const ok: Input = { anything: [1, "x"], also: null };
export function use(i: Input): string {
  return i.anything; // error TS2322
}
