import { normalize } from "./log.js";
export const get = { description: "Get", requires: ["storage.kv"], needsApproval: false, execute: async ({ key }, ctx) => ctx.kv.get(normalize(key)) };
