// A raw websocket held open for streaming tickers.
export const tools = {
  ["ws.tickerStream"]: {
    description: "Stream ticker updates for a few seconds and return them",
    requires: ["network.socket"],
    async execute(args, ctx) {
      const ws = await ctx.connect("ws");
      const out = [];
      for await (const m of ws.take(10)) out.push(m);
      return out;
    },
  },
};
