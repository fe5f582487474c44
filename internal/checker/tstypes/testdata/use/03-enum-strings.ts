import type { Input } from "../golden/03-enum-strings";

export const ok: Input = { unit: "metric" };
export const bad: Input = { unit: "kelvin" }; // error TS2322
