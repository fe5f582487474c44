import { stripe } from "./lib/stripe";

export default async function replayWebhook(input: { endpoint: string; event: string }) {
  const event = await stripe.request<Record<string, unknown>>("GET", `/events/${input.event}`);
  const res = await http.fetch(input.endpoint, { //@hosts(DYNAMIC)
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(event),
  });
  return `delivered: HTTP ${res.status}`;
}
