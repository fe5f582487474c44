// The TypeScript source of native/compiled.js (what an author compiles to
// the module): the same declarations, imported as types.
import type { NativeTools, NativeInput, ToolContext } from "../../.plugin/native.js";

async function push(args: NativeInput<"relay.push">, ctx: ToolContext<"relay.push">) {
  const sent: number = args.count; // error TS2322
  await ctx.collections.put("queue", args.id, { sent });
  await ctx.collections.get("queue", args.id);
  ctx.log(ctx.signal.aborted);
  await ctx.storage.delete(args.id); // error TS2339
  return sent;
}

export const tools = {
  "relay.push": {
    description: "Push an item onto the relay queue",
    inputJsonSchema: { type: "object", properties: { id: { type: "string" }, count: { type: "string" } }, required: ["id"] },
    requires: ["collections.read", "collections.write"],
    execute: push,
  },
  "relay.dyn": {
    inputJsonSchema: { type: "object" },
    requires: ["clock"],
    execute(args, ctx) {
      ctx.log(args);
      return ctx.notify("x"); // error TS2339
    },
  },
} satisfies NativeTools<"native/compiled.js">;
