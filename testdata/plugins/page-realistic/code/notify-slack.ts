// notifySlack: one message to the team channel's incoming webhook.
const WEBHOOK = "https://hooks.slack.com/services/T0/B0/XYZ";

type Block = { type: "section"; text: { type: "mrkdwn"; text: string } };

export default async function notifySlack(input: { text: string }) {
  const blocks: Block[] = [{ type: "section", text: { type: "mrkdwn", text: input.text } }];
  const res = await http.fetch(WEBHOOK, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text: input.text, blocks }),
  });
  return { type: "markdown", text: res.ok ? "Sent ✅" : `Slack answered ${res.status} ❌` };
}
