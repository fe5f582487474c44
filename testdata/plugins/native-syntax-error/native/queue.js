// Copied from src/queue.ts instead of building it.
import { createClient } from "redis";

export const tools = {
  "queue.push": {
    description: "Push a job on the work queue",
    requires: ["network.socket", "secrets.read"],
    async execute(args: { queue: string; job: unknown }, ctx) {
      const client = createClient({ url: await ctx.secret("redis_url") });
      await client.connect();
      return client.lPush(args.queue, JSON.stringify(args.job));
    },
  },
};
