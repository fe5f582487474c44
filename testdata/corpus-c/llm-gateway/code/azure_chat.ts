import { SyncAPIClient } from "./lib/_base_client";

// AzureOpenAI(azure_endpoint=f"https://{resource}.openai.azure.com", api_version=...)
export default async function azure_chat({ resource, deployment, prompt }: { resource: string; deployment: string; prompt: string }) {
  const azure = new SyncAPIClient({
    base_url: `https://${resource}.openai.azure.com/openai/deployments/${deployment}`,
    default_query: { "api-version": "2024-06-01" },
    max_retries: 0,
  });
  const out = await azure.request("POST", "chat/completions", { body: { messages: [{ role: "user", content: prompt }] } });
  return out?.choices?.[0]?.message?.content ?? null;
}
