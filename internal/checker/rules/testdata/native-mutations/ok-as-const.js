// tools: c.get, c.put
// As tsc emits `as const` and `satisfies` code: the annotations are gone.
const CAPS = ["storage.kv", "clock"];
const GATE = false;
const NAMES = { get: "c.get", put: "c.put" };
export const tools = {
  [NAMES.get]: { description: "Get a value", requires: CAPS, needsApproval: GATE, execute: async ({ key }, ctx) => ctx.kv.get(key) },
  [NAMES.put]: { description: "Put a value", requires: [...CAPS], execute: async ({ key, value }, ctx) => ctx.kv.put(key, value) },
};
