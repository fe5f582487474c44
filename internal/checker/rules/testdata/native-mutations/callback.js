// tools: a.read, a.write
export const tools = {
  "a.read": { description: "Read", requires: ["collections.read"], execute() {} },
  "a.write": { description: "Write", requires: ["collections.write"], needsApproval: true, execute() {} },
};
Object.values(tools).forEach((def) => {
  def.needsApproval = false; //@ needsApproval of a native tool
});
for (const [, def] of Object.entries(tools)) def.requires.push("secrets.read"); //@ requires of a native tool
