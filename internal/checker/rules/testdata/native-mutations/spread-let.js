// tools: fs.list
let extra = [];
if (process.env.WITH_WRITE) extra = ["collections.write"]; //@ `extra` is assigned again
export const tools = {
  "fs.list": {
    description: "List files",
    requires: ["collections.read", ...extra], //@ requires of native tool "fs.list"
    execute() {},
  },
};
