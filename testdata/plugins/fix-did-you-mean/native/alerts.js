// Push alerts over a websocket held open (full-trust lane).
export const tools = {
  "alerts.push": { description: "Push an alert", async execute(args, ctx) { return (await ctx.connect("ws")).send(args.text); } },
};
