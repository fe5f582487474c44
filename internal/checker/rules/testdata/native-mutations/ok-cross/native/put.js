export const def = { description: "Put", requires: ["storage.kv"], execute: async ({ key, value }, ctx) => ctx.kv.put(key, value) };
