// Matrix sync holds a long-poll connection open. The room tools come from
// a module generated into this plugin; the admin tools from the SDK.
import { roomTools } from "./generated/rooms.js";
import { adminTools } from "matrix-tool-kit";

const send = {
  description: "Send a message to a Matrix room",
  inputJsonSchema: { type: "object", properties: { room: { type: "string" }, body: { type: "string" } } },
  requires: ["secrets.read", "network.http"],
  async execute({ room, body }, ctx) {
    const client = await ctx.client("matrix");
    return client.sendText(room, body);
  },
};

export const tools = {
  "mx.send": send,
  ...roomTools,
  ...adminTools,
};
