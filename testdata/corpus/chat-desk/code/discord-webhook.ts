export default async function discordWebhook(input: { webhookUrl: string; content: string }) {
  if (!input.webhookUrl.startsWith("https://discord.com/api/webhooks/")) {
    throw new Error("not a Discord webhook URL");
  }
  const res = await http.fetch(input.webhookUrl + "?wait=true", { //@hosts(DYNAMIC)
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ content: input.content }),
  });
  return res.status === 200 ? "sent" : `failed: ${res.status}`;
}
