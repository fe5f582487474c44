import type { Input } from "../golden/17-map-only";

export const ok: Input = { en: "Hello", fr: "Bonjour" };
export const bad: Input = { en: 1 }; // error TS2322
