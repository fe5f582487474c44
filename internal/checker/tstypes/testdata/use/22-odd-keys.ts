import type { Input } from "../golden/22-odd-keys";

export const ok: Input = { "content-type": "text/plain", "2fa": true, ünï: "x" };
export const bad: Input = { "2fa": true }; // error TS2741
