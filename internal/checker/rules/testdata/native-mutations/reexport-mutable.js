// tools: s.get
let tools = {
  "s.get": { description: "Get", requires: ["storage.kv"], execute() {} },
};
export { tools };
export function reload(next) {
  tools = next; //@ the tools map may change
}
