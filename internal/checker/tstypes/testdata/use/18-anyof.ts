import type { Input } from "../golden/18-anyof";

export const a: Input = { id: "x" };
export const b: Input = { id: 7 };
export const c: Input = { id: true }; // error TS2322
