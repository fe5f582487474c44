import { client } from "./middleware";

type Sender = (channel: string, text: string) => Promise<Response>;

export const senders: Record<string, Sender> = {
  slack: (channel, text) => client("https://slack.com/api/chat.postMessage", { method: "POST", body: JSON.stringify({ channel, text }) }),
  discord: (channel, text) => client(`https://discord.com/api/v10/channels/${channel}/messages`, { method: "POST", body: JSON.stringify({ content: text }) }),
  telegram: (channel, text) =>
    client("https://api.telegram.org/bot{token}/sendMessage".replace("{token}", "TOKEN"), { method: "POST", body: JSON.stringify({ chat_id: channel, text }) }),
  teams: async (channel, text) => {
    const token = await teamsToken();
    return client(`https://graph.microsoft.com/v1.0/teams/${channel.split("/")[0]}/channels/${channel.split("/")[1] ?? "general"}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: JSON.stringify({ body: { content: text } }),
    });
  },
};

// client-credentials grant against the tenant's token endpoint
async function teamsToken(): Promise<string> {
  const res = await client("https://login.microsoftonline.com/common/oauth2/v2.0/token", {
    method: "POST",
    body: JSON.stringify({ grant_type: "client_credentials", scope: "https://graph.microsoft.com/.default" }),
  });
  return (await res.json()).access_token;
}

export const identity: Record<string, () => Promise<Response>> = {
  slack: () => client("https://slack.com/api/auth.test", { method: "POST" }),
  discord: () => client("https://discord.com/api/v10/users/@me", { method: "GET" }),
  telegram: () => client("https://api.telegram.org/botTOKEN/getMe", { method: "GET" }),
  teams: () => client("https://graph.microsoft.com/v1.0/me", { method: "GET" }),
};
