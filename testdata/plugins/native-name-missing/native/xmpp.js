// XMPP keeps a stream open over TLS.
import { client, xml } from "@xmpp/client";

async function connect(ctx) {
  const xmpp = client({ service: "xmpps://chat.example.org:5223", password: await ctx.secret("xmpp") });
  await xmpp.start();
  return xmpp;
}

const tools = {
  "xmpp.send": {
    description: "Send a chat message",
    requires: ["secrets.read", "network.socket"],
    async execute({ to, body }, ctx) {
      const x = await connect(ctx);
      await x.send(xml("message", { type: "chat", to }, xml("body", {}, body)));
      return { sent: true };
    },
  },
  "xmpp.presence": {
    description: "Set the account's presence",
    requires: ["secrets.read", "network.socket"],
    needsApproval: false,
    async execute({ show }, ctx) {
      const x = await connect(ctx);
      await x.send(xml("presence", {}, xml("show", {}, show)));
      return { show };
    },
  },
};

export default tools;
