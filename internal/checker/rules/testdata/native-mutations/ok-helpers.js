// tools: tg.send, tg.read
// A tools literal with helper functions, as authors write them.
import { connect } from "@acme/telegram";

const API = "https://api.telegram.org";

function chatUrl(chat) {
  return `${API}/chats/${encodeURIComponent(chat)}`;
}

async function withClient(ctx, fn) {
  const client = await connect(ctx.secrets.get("tg_token"));
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

const schema = {
  type: "object",
  required: ["chat"],
  properties: { chat: { type: "string" }, text: { type: "string", maxLength: 4096 } },
};

export const tools = {
  "tg.send": {
    description: "Send a Telegram message",
    inputJsonSchema: schema,
    requires: ["secrets.read", "network.socket"],
    needsApproval: true,
    async execute({ chat, text }, ctx) {
      const body = { chat, text, sentAt: Date.now() };
      body.text = text.trim();
      return withClient(ctx, (c) => c.post(chatUrl(chat), body));
    },
  },
  "tg.read": {
    description: "Read the last messages of a chat",
    inputJsonSchema: { type: "object", properties: { chat: { type: "string" }, limit: { type: "number" } } },
    requires: ["secrets.read", "network.socket"],
    needsApproval: (args) => (args.limit ?? 10) > 100,
    async execute(args, ctx) {
      args.limit = Math.min(args.limit ?? 10, 100);
      const out = [];
      for (const m of await withClient(ctx, (c) => c.get(chatUrl(args.chat)))) out.push(m.text);
      ctx.state = { last: out.length };
      return out;
    },
  },
};
