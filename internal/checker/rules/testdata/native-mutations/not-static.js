// tools: n.one
import { loadPolicy } from "./policy.js";
const policy = loadPolicy();
export const tools = {
  "n.one": {
    description: "One",
    requires: policy.requires, //@ requires of native tool "n.one"
    needsApproval: policy.approve, //@ needsApproval of native tool "n.one"
    execute() {},
  },
};
