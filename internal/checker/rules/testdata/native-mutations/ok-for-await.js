// tools: s.stream
// Syntax this checker parses with function bodies left out: the bodies
// do not name the tools.
export const tools = {
  "s.stream": {
    description: "Stream updates",
    requires: ["network.socket"],
    async execute(args, ctx) {
      const ws = await ctx.connect("ws");
      const out = [];
      for await (const m of ws.take(10)) out.push(m);
      return out;
    },
  },
};
