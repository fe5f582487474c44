import type { Input } from "../golden/12-recursive-ref";

export const ok: Input = { root: { label: "a", children: [{ label: "b", children: [{ label: "c" }] }] } };
export const bad: Input = { root: { label: "a", children: [{ label: 2 }] } }; // error TS2322
