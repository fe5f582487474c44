import { rest, Routes } from "./lib/discord";

type Message = { id: string; author: { username: string }; content: string };

export default async function discordChannel({ channelId }: { channelId: string }) {
  const messages = await rest<Message[]>(`${Routes.channelMessages(channelId)}?limit=20`);
  return messages.map((m) => ({ from: m.author.username, text: m.content }));
}
