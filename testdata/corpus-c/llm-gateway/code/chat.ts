import { client_for, type Provider } from "./lib/providers";

export default async function chat({ provider, model, prompt, temperature = 0.2 }: { provider: Provider; model?: string; prompt: string; temperature?: number }) {
  const { client, default_model } = client_for(provider);
  const completion = await client.request("POST", "/chat/completions", {
    body: { model: model ?? default_model, temperature, messages: [{ role: "user", content: prompt }] },
  });
  return completion?.choices?.[0]?.message?.content ?? completion?.status ?? null;
}
