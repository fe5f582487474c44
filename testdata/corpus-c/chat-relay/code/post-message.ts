import { senders } from "./lib/platforms";

export default async function postMessage({ platform, channel, text }: { platform: "slack" | "discord" | "telegram" | "teams"; channel: string; text: string }) {
  const send = senders[platform] ?? senders.slack;
  const res = await send(channel, text);
  const body = await res.json();
  return { ok: res.ok && body.ok !== false, id: body.ts ?? body.id ?? body.result?.message_id ?? null };
}
