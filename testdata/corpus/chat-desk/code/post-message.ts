import { slack } from "./lib/slack";

export default async function postMessage(input: { channel: string; text: string }) {
  const res = await slack.apiCall("chat.postMessage", {
    channel: input.channel,
    text: input.text,
    unfurl_links: false,
  });
  return { ts: res.ts, channel: res.channel };
}
