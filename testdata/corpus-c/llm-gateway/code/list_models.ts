// Straight-line script: the same variable names the primary, then the fallback.
export default async function list_models({ include_fallback = false }: { include_fallback?: boolean }) {
  var base_url = "https://api.openai.com/v1";
  const primary = await http.fetch(base_url + "/models"); //@hosts(api.openai.com)
  const models = ((await primary.json()).data ?? []).map((m: { id: string }) => m.id);
  base_url = "https://openrouter.ai/api/v1";
  if (!include_fallback) return { models, fallback: base_url };
  const fallback = await http.fetch(`${base_url}/models`); //@hosts(openrouter.ai)
  return { models, fallback: ((await fallback.json()).data ?? []).length };
}
