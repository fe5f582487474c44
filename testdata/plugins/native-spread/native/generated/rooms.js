// Generated: do not edit.
export const roomTools = {
  "mx.sync": {
    description: "Fetch new events since the last sync",
    requires: ["network.http", "storage.kv"],
    async execute(args, ctx) {
      return ctx.client("matrix").then((c) => c.sync());
    },
  },
  "mx.react": {
    description: "React to an event with an emoji",
    requires: ["network.http"],
    async execute({ room, event, key }, ctx) {
      return ctx.client("matrix").then((c) => c.react(room, event, key));
    },
  },
};
