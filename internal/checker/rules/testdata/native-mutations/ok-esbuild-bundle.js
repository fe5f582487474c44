// tools: b.one
// An esbuild ESM bundle: helpers, a namespace object, a var-declared map.
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all) __defProp(target, name, { get: all[name], enumerable: true });
};
var util_exports = {};
__export(util_exports, { fmt: () => fmt });
function fmt(s) {
  return String(s).trim();
}
var tools = {
  "b.one": {
    description: "One",
    requires: ["clock"],
    needsApproval: true,
    execute: async (args) => fmt(args.text),
  },
};
export {
  tools,
  util_exports as util
};
