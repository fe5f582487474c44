// Radar frames over a websocket: cannot ride a brokered fetch.
export const tools = {
  "radar.stream": {
    description: "Stream radar frames for a region",
    requires: ["network.socket"],
    async execute(args, ctx) {
      const ws = await ctx.connect("radar");
      return ws.frames(args.region);
    },
  },
};
