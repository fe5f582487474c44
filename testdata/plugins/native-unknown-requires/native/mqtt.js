// Home automation over MQTT (a persistent TCP session).
import mqtt from "mqtt";

const BROKER_CAPS = ["network.socket", "secret.read"];

const publish = {
  description: "Publish a message on a home topic",
  inputJsonSchema: { type: "object", properties: { topic: { type: "string" }, payload: { type: "string" } } },
  requires: BROKER_CAPS,
  async execute({ topic, payload }, ctx) {
    const client = mqtt.connect("mqtts://home.local", { password: await ctx.secret("mqtt") });
    await client.publishAsync(`home/${topic}`, payload);
    return { ok: true };
  },
};

const watch = {
  description: "Watch a topic and record changes",
  requires: ["network.socket", "filesystem.write", "storage.kv"],
  async execute({ topic }, ctx) {
    return ctx.kv.get(`last/${topic}`);
  },
};

export const tools = { "home.publish": publish, "home.watch": watch };
