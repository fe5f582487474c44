export default {
  "irc.send": { description: "Send to IRC (second network)", async execute(a, ctx) { return (await ctx.connect("irc2")).say(a.channel, a.text); } },
};
