// Compiled native module: MQTT needs a long-lived TCP session, which a
// brokered fetch cannot hold.
let session = null;

async function connect(ctx) {
  if (!session) {
    session = await ctx.connect("mqtt");
  }
  return session;
}

export default {
  "mqtt.publish": {
    description: "Publish a message on an MQTT topic",
    inputJsonSchema: {
      type: "object",
      properties: { topic: { type: "string" }, payload: { type: "string" } },
      required: ["topic", "payload"],
    },
    requires: ["network.socket"],
    async execute(args, ctx) {
      const s = await connect(ctx);
      await s.publish(args.topic, args.payload);
      return { ok: true };
    },
  },
  "mqtt.lastMessage": {
    description: "The last retained message of a topic",
    inputJsonSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
    requires: ["network.socket"],
    needsApproval: false,
    async execute(args, ctx) {
      const s = await connect(ctx);
      return s.retained(args.topic);
    },
  },
};
