export const tools = {
  "chat.send": { description: "Send a chat message", async execute(args, ctx) { return ctx.send(args); } },
};
