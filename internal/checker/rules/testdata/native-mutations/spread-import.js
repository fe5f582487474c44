// tools: fs.list
import { extraCaps } from "@acme/caps";
export const tools = {
  "fs.list": {
    description: "List files",
    requires: ["collections.read", ...extraCaps], //@ spreads an imported value
    execute() {},
  },
};
