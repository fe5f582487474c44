// Microsoft Graph: POST /teams/{team-id}/channels/{channel-id}/messages
const GRAPH_ROOT = "https://graph.microsoft.com";
const GRAPH_VERSION = "v1.0";

const graphUrl = (path: string) => `${GRAPH_ROOT}/${GRAPH_VERSION}${path}`;

export default async function teamsNotify(input: { teamId: string; channelId: string; text: string }) {
  const url = graphUrl(`/teams/${encodeURIComponent(input.teamId)}/channels/${encodeURIComponent(input.channelId)}/messages`);
  const res = await http.fetch(url, { //@hosts(graph.microsoft.com)
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ body: { contentType: "text", content: input.text } }),
  });
  return { status: res.status };
}
