// tools: k.one
// Local arrays and objects copied from the tools, then changed: the
// tools themselves are untouched.
const base = ["storage.kv"];
const one = { description: "One", requires: [...base], needsApproval: true, execute() {} };
export const tools = { "k.one": one };

export function describeTool(name) {
  const caps = [...tools[name].requires];
  caps.push("(shown)");
  const sorted = tools[name].requires.slice().sort();
  sorted.reverse();
  const merged = [].concat(one.requires, ["x"]);
  merged.push("y");
  const fromArr = Array.from(one.requires);
  fromArr.length = 0;
  const view = { ...tools[name], needsApproval: false };
  view.description = "copy";
  const clone = structuredClone(one.requires);
  clone.push("z");
  const spread = { ...one };
  spread.needsApproval = false;
  return { caps, sorted, merged, view, clone, spread };
}
base.push("later"); // the literal spread a copy of base: copies are not the tools
