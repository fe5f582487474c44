// tools: files.read
export const tools = {
  "files.read": {
    description: "Read a file of the workspace",
    requires: ["collections.read"],
    needsApproval: true,
    inputJsonSchema: { type: "object", required: ["path"], properties: { path: { type: "string", pattern: "^[a-z/]+$" } } },
    async execute({ path }, ctx) { return ctx.read(path); },
  },
};
delete tools["files.read"].inputJsonSchema.properties.path.pattern; //@ inputJsonSchema of native tool "files.read"
