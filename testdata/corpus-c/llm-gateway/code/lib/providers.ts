import { SyncAPIClient, type ClientOptions } from "./_base_client";

export type Provider = "openai" | "groq" | "mistral" | "together";

const PROVIDER_CONFIG: Record<Provider, ClientOptions & { default_model: string }> = {
  openai: { base_url: "https://api.openai.com/v1", default_model: "gpt-4o-mini" },
  groq: { base_url: "https://api.groq.com/openai/v1", default_model: "llama-3.1-8b-instant" },
  mistral: { base_url: "https://api.mistral.ai/v1", default_model: "mistral-small-latest", max_retries: 1 },
  together: { base_url: "https://api.together.xyz/v1", default_model: "meta-llama/Llama-3-8b-chat-hf" },
};

export function client_for(provider: Provider, overrides: Partial<ClientOptions> = {}) {
  const { default_model, ...options } = PROVIDER_CONFIG[provider] ?? PROVIDER_CONFIG.openai;
  return { client: new SyncAPIClient({ ...options, ...overrides }), default_model };
}
