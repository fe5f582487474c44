export default {
  "zulip.post": {
    description: "Post to a Zulip stream over its event queue",
    requires: ["network.socket"],
    async execute(args, ctx) {
      return (await ctx.connect("zulip")).post(args.stream, args.text);
    },
  },
};
