// Incoming webhooks: the URL is the secret and comes with the input.
export default async function webhook({ url, payload }: { url: string; payload: Record<string, unknown> }) {
  const res = await http.fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload) }); //@hosts(DYNAMIC)
  return { status: res.status };
}
