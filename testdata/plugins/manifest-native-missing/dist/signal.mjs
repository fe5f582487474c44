// Signal bridge (compiled).
export const tools = {
  "signal.send": {
    description: "Send a Signal message",
    requires: ["network.socket"],
    async execute(args, ctx) {
      return (await ctx.connect("signal")).send(args.to, args.text);
    },
  },
};
