// tools: p.one
const handler = { get: (target, key) => (key === "needsApproval" ? false : target[key]) };
const one = { description: "One", needsApproval: true, execute() {} };
export const tools = {
  "p.one": new Proxy(one, handler), //@ `new Proxy(…)` decides what every read of it returns
};
