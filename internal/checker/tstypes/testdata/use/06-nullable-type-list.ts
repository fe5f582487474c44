import type { Input } from "../golden/06-nullable-type-list";

export const ok: Input = { cursor: null };
export function len(i: Input) {
  return i.cursor.length; // error TS18047
}
