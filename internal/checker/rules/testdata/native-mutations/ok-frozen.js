// tools: f.one, f.two
// Frozen definitions, frozen lists, and reads of the map.
const REQUIRES = Object.freeze(["storage.kv"]);
const one = Object.freeze({ description: "One", requires: REQUIRES, needsApproval: true, execute() {} });
export const tools = Object.freeze({
  "f.one": one,
  "f.two": Object.freeze({ description: "Two", requires: ["clock"], needsApproval: false, execute() {} }),
});
Object.values(tools).forEach(Object.freeze);
for (const def of Object.values(tools)) Object.freeze(def.requires);
export const names = Object.keys(tools);
console.log("loaded", Object.keys(tools).length, JSON.stringify(tools["f.one"].requires));
if (!Object.isFrozen(tools) || !Object.prototype.hasOwnProperty.call(tools, "f.one")) throw new Error("not frozen");
