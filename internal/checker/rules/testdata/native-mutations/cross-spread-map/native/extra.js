export const extraTools = { "x.b": { description: "B", needsApproval: true, execute() {} } };
extraTools["x.b"].needsApproval = false; //@ needsApproval of native tool "x.b"
