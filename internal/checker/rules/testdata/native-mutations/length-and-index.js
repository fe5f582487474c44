// tools: kv.get
const REQUIRES = ["storage.kv", "notify.user"];
export const tools = { "kv.get": { description: "Get", requires: REQUIRES, execute() {} } };
REQUIRES.length = 1; //@ requires of native tool "kv.get"
REQUIRES[1] = "network.socket"; //@ requires of native tool "kv.get"
tools["kv.get"].requires.length--; //@ requires of native tool "kv.get"
