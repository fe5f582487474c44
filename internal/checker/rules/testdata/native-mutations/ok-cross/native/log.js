const state = { needsApproval: true, requires: [] };
export function log(...args) {
  state.requires.push(args.length);
  state.needsApproval = false;
  console.log(...args);
}
export const normalize = (k) => String(k).toLowerCase();
