// Market data over ZeroMQ: a PUB/SUB socket cannot ride a brokered fetch.
import { Subscriber } from "zeromq";

const ENDPOINT = "tcp://feed.example.net:5556";

async function connect(ctx) {
  const sock = new Subscriber();
  sock.connect(ENDPOINT);
  ctx.onAbort(() => sock.close());
  return sock;
}

export default {
  "feed.subscribe": {
    description: "Stream quotes for a symbol until the run ends",
    inputJsonSchema: {
      type: "object",
      properties: { symbol: { type: "string" }, max: { type: "integer" } },
      required: ["symbol"],
    },
    requires: ["network.socket", "clock"],
    async execute({ symbol, max = 50 }, ctx) {
      const sock = await connect(ctx);
      sock.subscribe(`quote.${symbol}`);
      const quotes = [];
      for await (const [topic, msg] of sock) {
        quotes.push(JSON.parse(msg.toString()));
        if (quotes.length >= max) break;
      }
      return quotes;
    },
  },
  "feed.snapshot": {
    description: "Latest quote for a symbol",
    inputJsonSchema: { type: "object", properties: { symbol: { type: "string" } } },
    requires: ["network.socket"],
    needsApproval: false,
    async execute({ symbol }, ctx) {
      const sock = await connect(ctx);
      sock.subscribe(`quote.${symbol}`);
      const [, msg] = await sock.receive();
      sock.close();
      return JSON.parse(msg.toString());
    },
  },
};
