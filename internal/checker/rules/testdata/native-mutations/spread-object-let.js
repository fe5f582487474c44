// tools: fs.rm
var defaults = { needsApproval: true };
export function configure(opts) { defaults = { ...defaults, ...opts }; } //@ `defaults` is assigned again
export const tools = {
  "fs.rm": { ...defaults, description: "Remove a file", execute() {} }, //@ spreads a `var`
};
