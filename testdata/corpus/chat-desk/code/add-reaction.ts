import { WebClient, type SlackResponse } from "./lib/slack";

const web = new WebClient();

export default async function addReaction(input: { channel: string; ts: string; name: string }): Promise<string> {
  const r: SlackResponse = await web.apiCall("reactions.add", { channel: input.channel, timestamp: input.ts, name: input.name });
  return r.ok ? `:${input.name}: added` : "failed";
}
