// tools: r.one
import { register } from "@acme/registry";
export const tools = { "r.one": { description: "One", needsApproval: true, execute() {} } };
register(tools); //@ `register(tools)` is given it
