import type { Input } from "../golden/04-enum-mixed";

export const all: Input[] = ["auto", 1, 2, null, true];
export const bad: Input = 3; // error TS2322
