// ZeroMQ market feed (compiled from src/zmq.ts).
const subscribe = {
  description: "Subscribe to a ticker on the ZeroMQ feed",
  inputJsonSchema: { type: "object", properties: { ticker: { type: "string" } }, required: ["ticker"] },
  requires: ["network.socket"],
  async execute(args, ctx) {
    const sock = await ctx.connect("zmq");
    sock.subscribe(args.ticker);
    return { subscribed: args.ticker };
  },
};

const snapshot = {
  description: "Latest quote for a ticker",
  inputJsonSchema: { type: "object", properties: { ticker: { type: "string" } }, required: ["ticker"] },
  requires: ["network.socket"],
  needsApproval: false,
  async execute(args, ctx) {
    const sock = await ctx.connect("zmq");
    return sock.request("snapshot", args.ticker);
  },
};

export const tools = {
  "feed.subscribe": subscribe,
  "feed.snapshot": snapshot,
};
