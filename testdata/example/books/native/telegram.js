// A compiled native tool module (full-trust lane). It speaks MTProto over a
// raw TCP socket, which cannot ride a brokered fetch. Under fake providers
// (the default of `plugin-lsp run --trust-native`) the harness refuses the
// socket and records it in the run's connections.
import net from "node:net";

// Telegram's data centre 2 (MTProto over TCP, the "intermediate" transport).
const DC = { host: "149.154.167.50", port: 443 };

function open(signal) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(DC);
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
    signal.addEventListener("abort", () => {
      socket.destroy();
      reject(signal.reason);
    }, { once: true });
  });
}

const sendMessage = {
  description: "Send a Telegram message to a chat",
  inputJsonSchema: {
    type: "object",
    properties: { chat: { type: "string" }, text: { type: "string" } },
    required: ["chat", "text"],
    examples: [{ chat: "@books", text: "Finished The Hobbit" }],
  },
  requires: ["secrets.read", "network.socket"],
  async execute(args, ctx) {
    const socket = await open(ctx.signal);
    socket.end(Buffer.from([0xee, 0xee, 0xee, 0xee])); // transport tag, then the session would start
    return { chat: args.chat, sent: false };
  },
};

const readChat = {
  description: "Read the last messages of a Telegram chat",
  inputJsonSchema: { type: "object", properties: { chat: { type: "string" } } },
  requires: ["secrets.read", "network.socket"],
  needsApproval: false,
  async execute(args, ctx) {
    const socket = await open(ctx.signal);
    socket.destroy();
    return { chat: args.chat, messages: [] };
  },
};

export const tools = {
  "tg.sendMessage": sendMessage,
  "tg.readChat": readChat,
};
