import type { Input } from "../golden/13-definitions-draft7";

export const ok: Input = { money: { amount: 3, currency: "EUR" } };
export const extra: Input = { money: { amount: 3, currency: "EUR", rate: 1 } }; // error TS2353
