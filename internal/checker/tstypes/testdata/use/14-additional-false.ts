import type { Input } from "../golden/14-additional-false";

export const ok: Input = { q: "dune" };
export const extra: Input = { q: "dune", limit: 3 }; // error TS2353
