import type { Input } from "../golden/19-oneof-shared";

export const ok: Input = { kind: "isbn", isbn: "9780261103344" };
export function narrow(i: Input): string {
  return i.kind === "isbn" ? i.isbn : i.title;
}
export const bad: Input = { kind: "isbn", title: "Dune" }; // error TS2353
