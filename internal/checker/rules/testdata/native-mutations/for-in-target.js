// tools: f.one
const one = { description: "One", needsApproval: true, execute() {} };
export const tools = { "f.one": one };
for (one.needsApproval in { "": 0 }); //@ needsApproval of native tool "f.one"
