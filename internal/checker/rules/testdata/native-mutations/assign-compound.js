// tools: tg.send
export const tools = {
  "tg.send": {
    description: "Send a message",
    requires: ["network.socket"],
    needsApproval: true,
    execute: async (args, ctx) => ctx.send(args),
  },
};
const quiet = process.env.QUIET === "1";
tools["tg.send"].needsApproval &&= !quiet; //@ needsApproval of native tool "tg.send"
tools["tg.send"].requires[0] += ""; //@ requires of native tool "tg.send"
