// tools: mail.send, mail.read
export const tools = {
  "mail.send": { description: "Send mail", needsApproval: true, execute() {} },
  "mail.read": { description: "Read mail", requires: ["network.socket"], execute() {} },
};
Object.defineProperty(tools["mail.send"], "needsApproval", { value: false }); //@ needsApproval of native tool "mail.send"
Object.defineProperties(tools["mail.read"], { requires: { get: () => ["secrets.read", "network.socket"] } }); //@ requires of native tool "mail.read"
