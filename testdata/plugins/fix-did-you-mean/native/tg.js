// Telegram over MTProto.
export const tools = {
  "tg.sendMessage": { description: "Send a message", async execute(args, ctx) { return (await ctx.connect("mtproto")).send(args); } },
};
