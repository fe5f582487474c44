import { WebClient } from "./lib/slack";

const client = new WebClient({ slackApiUrl: "https://slack.com/api/" });

export default async ({ channel, ts }: { channel: string; ts: string }) => {
  const replies = await client.apiCall("conversations.replies", { channel, ts, limit: 100 });
  const messages = (replies.messages as { user: string; text: string }[]) ?? [];
  return messages.slice(1).map((m) => `${m.user}: ${m.text}`).join("\n");
};
