// tools: r.get
let current = { "r.get": { description: "Get", requires: ["storage.kv"], execute() {} } };
export { current as tools };
export default current;
export function swap(next) {
  current = next; //@ the tools map may change
}
