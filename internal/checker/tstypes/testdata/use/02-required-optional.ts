import type { Input } from "../golden/02-required-optional";

export const ok: Input = { isbn: "9780261103344" };
export const full: Input = { isbn: "9780261103344", edition: 2, signed: false };
export const missing: Input = { edition: 2 }; // error TS2741
export const wrongType: Input = { isbn: 9780261103344 }; // error TS2322
export function typo(i: Input) {
  return i.isbm; // error TS2339
}
export function optional(i: Input): number {
  return i.edition; // error TS2322
}
