export const tools = {
  "irc.send": { description: "Send to an IRC channel", async execute(a, ctx) { return (await ctx.connect("irc")).say(a.channel, a.text); } },
  "irc.join": { description: "Join an IRC channel", async execute(a, ctx) { return (await ctx.connect("irc")).join(a.channel); } },
  translate: { description: "Translate with the IRC bot", async execute(a, ctx) { return a.text; } },
};
