// IRC speaks a line protocol over a raw TLS socket.
import tls from "node:tls";

const NS = "irc.";
const SEND = NS + "send";

function open(ctx) {
  return new Promise((resolve, reject) => {
    const s = tls.connect(6697, "irc.libera.chat", () => resolve(s));
    s.once("error", reject);
  });
}

const tools = {
  [SEND]: {
    description: "Send a message to a channel",
    inputJsonSchema: { type: "object", properties: { channel: { type: "string" }, text: { type: "string" } } },
    requires: ["network.socket", "secrets.read"],
    async execute({ channel, text }, ctx) {
      const s = await open(ctx);
      s.write(`PRIVMSG ${channel} :${text}\r\n`);
      s.end();
      return { sent: true };
    },
  },
  [`${NS}join`]: {
    description: "Join a channel",
    requires: ["network.socket"],
    async execute({ channel }, ctx) {
      const s = await open(ctx);
      s.write(`JOIN ${channel}\r\n`);
      return { joined: channel };
    },
  },
  ["irc.topic"]: {
    description: "Read a channel's topic",
    requires: ["network.socket"],
    needsApproval: (args) => args.channel.startsWith("#private"),
    async execute({ channel }, ctx) {
      const s = await open(ctx);
      s.write(`TOPIC ${channel}\r\n`);
      return new Promise((resolve) => s.once("data", (d) => resolve(String(d))));
    },
  },
};

export { tools };
