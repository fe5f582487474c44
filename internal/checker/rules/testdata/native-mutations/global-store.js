// tools: g.one
export const tools = { "g.one": { description: "One", needsApproval: true, execute() {} } };
globalThis.__pluginTools = tools; //@ stored in `globalThis`
