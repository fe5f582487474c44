import type { Input } from "../golden/09-tuple";

export const ok: Input = { point: [1, 2], path: ["a", 1, 2, 3] };
export const tooLong: Input = { point: [1, 2, 3] }; // error TS2322
