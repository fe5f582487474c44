"use strict";
// Built with tsc --module commonjs by mistake.
const { TelegramClient } = require("telegram");

const sendMessage = {
  description: "Send a Telegram message to a chat",
  requires: ["secrets.read", "network.socket"],
  async execute(args, ctx) {
    const client = new TelegramClient(await ctx.session("telegram"));
    return client.sendMessage(args.chat, { message: args.text });
  },
};

module.exports = { tools: { "tg.sendMessage": sendMessage } };
