// @ts-check
// A native module checked through JSDoc: every "error TSnnnn" annotation
// is a mistake the generated .plugin/native.d.ts makes tsc find.

/** @type {import("../.plugin/native.js").NativeTool<"chat.send">} */
const send = {
  description: "Send a message to a room",
  inputJsonSchema: {
    type: "object",
    properties: { room: { type: "string" }, text: { type: "string" }, urgent: { type: "boolean" } },
    required: ["room", "text"],
    additionalProperties: false,
  },
  requires: ["secrets.read", "network.socket"],
  async execute(args, ctx) {
    const token = await ctx.secrets.get("chat_token");
    await ctx.secrets.get("other_token"); // error TS2345
    ctx.log(args.room, args.text.length, token.length, ctx.callId, ctx.claim);
    ctx.log(args.rooom); // error TS2551
    await ctx.storage.get("cursor"); // error TS2339
    await ctx.notify("sent"); // error TS2339
    if (args.urgent === "yes") ctx.log("urgent"); // error TS2367
    ctx.signal.throwIfAborted();
    return { sent: true };
  },
};

/** @type {import("../.plugin/native.js").NativeTools<"native/chat.js">} */
export const tools = {
  "chat.send": send,
  "chat.read": {
    description: "Read a room's last messages",
    inputJsonSchema: { type: "object", properties: { room: { type: "string" }, limit: { type: "integer", maximum: 50 } } },
    requires: ["storage.kv", "collections.read", "notify.user"],
    needsApproval: (args) => args.limit !== undefined && args.limit > 20,
    async execute(args, ctx) {
      const cursor = await ctx.storage.get(args.room ?? "lobby");
      await ctx.storage.set("cursor", cursor);
      const notes = await ctx.collections.query("notes", { limit: args.limit });
      await ctx.collections.put("notes", "k", 1); // error TS2339
      await ctx.notify(`read ${notes.length}`);
      return ctx.secrets; // error TS2339
    },
  },
};

/** @type {import("../.plugin/native.js").NativeInput<"chat.send">} */
export const sample = { room: "lobby", text: "hi", colour: "red" }; // error TS2353
