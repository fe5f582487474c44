// Slack's v2 upload flow: get an upload URL, send the bytes there, complete.
const SLACK = "https://slack.com/api";

export default async function uploadSnippet(input: { content: string; external?: boolean }) {
  const ticket = await http.fetch(`${SLACK}/files.getUploadURLExternal?filename=snippet.txt&length=${input.content.length}`); //@hosts(slack.com)
  const { upload_url, file_id } = await ticket.json();
  // The upload URL comes back from Slack: only Slack knows it.
  await http.fetch(upload_url, { method: "POST", body: input.content }); //@hosts(DYNAMIC)
  const host = input.external ? "https://files.slack.com" : "https://slack.com";
  const done = await http.fetch(`${host}/api/files.completeUploadExternal`, { //@hosts(files.slack.com, slack.com)
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ files: [{ id: file_id }] }),
  });
  return (await done.json()).ok;
}
