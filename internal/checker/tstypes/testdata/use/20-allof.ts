import type { Input } from "../golden/20-allof";

export const ok: Input = { id: "1", note: "x" };
export const bad: Input = { note: "x" }; // error TS2322
