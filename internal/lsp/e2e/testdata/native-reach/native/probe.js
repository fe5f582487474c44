// A native tool module that speaks a line protocol over a raw TCP socket
// (node:net) while its requires grants no socket: the run records the
// connection (refused under fake providers) and the editor reports
// native-reach-at-run at the tool's definition, with the fix that adds
// "network.socket" to requires.
import net from "node:net";

const ping = {
  description: "Ping a queue server and return its answer",
  inputJsonSchema: {
    type: "object",
    properties: { host: { type: "string" }, port: { type: "integer" } },
    required: ["host", "port"],
    examples: [{ host: "127.0.0.1", port: 6379 }],
  },
  requires: [],
  needsApproval: false,
  async execute(args, ctx) {
    const answer = await new Promise((resolve, reject) => {
      const socket = net.connect({ host: args.host, port: args.port });
      socket.once("connect", () => socket.end("PING\r\n"));
      socket.once("data", (d) => resolve(String(d).trim()));
      socket.once("error", reject);
      ctx.signal.addEventListener("abort", () => {
        socket.destroy();
        reject(ctx.signal.reason);
      }, { once: true });
    });
    return { answer };
  },
};

export const tools = { "queue.ping": ping };
