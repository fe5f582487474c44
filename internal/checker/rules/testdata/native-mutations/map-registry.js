// tools: m.one
export const tools = { "m.one": { description: "One", needsApproval: true, execute() {} } };
const registry = new Map(Object.entries(tools));
registry.get("m.one").needsApproval = false; //@ needsApproval of a native tool
