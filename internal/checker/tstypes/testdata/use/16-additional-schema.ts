import type { Input } from "../golden/16-additional-schema";

export const ok: Input = { default: 1, eur: 1.1, usd: 1 };
export const bad: Input = { eur: "1.1" }; // error TS2322
