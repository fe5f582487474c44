// issues: sets the Authorization header that the broker injects itself.
export default async function issues(input: { token?: string }) {
  const res = await http.fetch("https://api.github.com/repos/o/r/issues", {
    headers: { Authorization: `Bearer ${input.token}`, Accept: "application/vnd.github+json" },
  });
  const h = new Headers({ "x-slack-key": "k" });
  const headers: Record<string, string> = {};
  headers["authorization"] = "token";
  return { type: "markdown", text: `${res.status} ${h.get("accept")} ${Object.keys(headers)}` };
}
