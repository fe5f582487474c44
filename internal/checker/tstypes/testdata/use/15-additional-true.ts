import type { Input } from "../golden/15-additional-true";

export const extra: Input = { q: "dune", limit: 3 };
export const bad: Input = { limit: 3 }; // error TS2741
