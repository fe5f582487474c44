// tools: a.base, a.extra, a.more
// Entries added by top-level statements are read as entries.
export const tools = {
  "a.base": { description: "Base", requires: ["clock"], execute() {} },
};
tools["a.extra"] = { description: "Extra", requires: ["storage.kv"], needsApproval: false, execute() {} };
Object.assign(tools, { "a.more": { description: "More", execute() {} } });
