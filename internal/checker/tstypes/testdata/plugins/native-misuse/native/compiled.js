// What native/src/compiled.ts compiles to (its definitions as the checker
// reads them; relay.dyn's schema is computed, so its input is unknown).
const queueSchema = { type: "object", properties: { id: { type: "string" }, count: { type: "string" } }, required: ["id"] };

function makeSchema() {
  return { type: "object" };
}

async function push(args, ctx) {
  const sent = args.count;
  await ctx.collections.put("queue", args.id, { sent });
  return sent;
}

export const tools = {
  "relay.push": {
    description: "Push an item onto the relay queue",
    inputJsonSchema: queueSchema,
    requires: ["collections.read", "collections.write"],
    execute: push,
  },
  "relay.dyn": {
    inputJsonSchema: makeSchema(),
    requires: ["clock"],
    execute(args, ctx) {
      ctx.log(args);
    },
  },
};
