// MTProto cannot ride a brokered fetch.
const sendMessage = {
  description: "Send a Telegram message to a chat",
  requires: ["secrets.read", "network.socket"],
  async execute(args, ctx) {
    return (await ctx.connect("telegram")).send(args.chat, args.text);
  },
};

const readChat = {
  description: "Read the last messages of a chat",
  requires: ["secrets.read", "network.socket"],
  needsApproval: false,
  async execute(args, ctx) {
    return (await ctx.connect("telegram")).history(args.chat, 20);
  },
};

const deleteChat = {
  description: "Delete a chat and its history",
  requires: ["secrets.read", "network.socket"],
  async execute(args, ctx) {
    return (await ctx.connect("telegram")).deleteChat(args.chat);
  },
};

export const tools = {
  "tg.sendMessage": sendMessage,
  "tg.readChat": readChat,
  "tg.deleteChat": deleteChat,
};
