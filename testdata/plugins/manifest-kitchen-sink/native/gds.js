// Global distribution system session (compiled).
export const tools = {
  "gds.book": {
    description: "Book a fare through the GDS session",
    requires: ["network.socket"],
    async execute(args, ctx) {
      return (await ctx.connect("gds")).book(args.fare);
    },
  },
  "calendar.read": {
    description: "Read the traveller's bookings as calendar entries",
    requires: ["network.socket"],
    async execute(args, ctx) {
      return (await ctx.connect("gds")).bookings();
    },
  },
};
