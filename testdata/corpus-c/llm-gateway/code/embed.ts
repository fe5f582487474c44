import { client_for } from "./lib/providers";

export default async function embed({ texts, dimensions }: { texts: string[]; dimensions?: number }) {
  const { client } = client_for("openai", { max_retries: 3 });
  const body = { model: "text-embedding-3-small", input: texts, ...(dimensions ? { dimensions } : {}) };
  const res = await client.request("POST", "embeddings", { body });
  let usage = res?.usage?.total_tokens ?? 0;
  const moderation = await client.request("POST", "moderations", { body: { input: texts.join("\n") } });
  usage = usage + (moderation?.usage?.total_tokens ?? 0);
  return { vectors: (res?.data ?? []).length, usage };
}
