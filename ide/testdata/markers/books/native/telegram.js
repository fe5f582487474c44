// A compiled native tool module (full-trust lane). It speaks MTProto, which
// cannot ride a brokered fetch.
const sendMessage = {
  description: "Send a Telegram message to a chat",
  inputJsonSchema: {
    type: "object",
    properties: { chat: { type: "string" }, text: { type: "string" } },
    required: ["chat", "text"],
  },
  requires: ["secrets.read", "network.socket"],
  async execute(args, ctx) {
    const client = await ctx.connect("telegram");
    return client.send(args.chat, args.text);
  },
};

const readChat = {
  description: "Read the last messages of a Telegram chat",
  inputJsonSchema: { type: "object", properties: { chat: { type: "string" } } },
  requires: ["secrets.read", "network.socket"],
  needsApproval: false,
  async execute(args, ctx) {
    const client = await ctx.connect("telegram");
    return client.history(args.chat, 20);
  },
};

export const tools = {
  "tg.sendMessage": sendMessage,
  "tg.readChat": readChat,
};
