export const send = { description: "Send a text", requires: ["network.socket"], needsApproval: true, execute() {} };
