// tools: l.one
let gate = true;
export const tools = { "l.one": { description: "One", needsApproval: gate, execute() {} } };
export function setGate(v) {
  gate = v; //@ `gate` is assigned again
}
