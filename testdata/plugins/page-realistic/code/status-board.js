// statusBoard: plain JavaScript; two status pages fetched in parallel.
const SERVICES = [
  ["GitHub", "https://www.githubstatus.com/api/v2/status.json"],
  ["Slack", "https://status.slack.com/api/v2.0.0/current"],
];

export default async function statusBoard() {
  const [github, slack] = await Promise.all([
    http.fetch("https://www.githubstatus.com/api/v2/status.json"),
    http.fetch("https://status.slack.com/api/v2.0.0/current"),
  ]);
  return {
    type: "table",
    columns: ["Service", "OK"],
    rows: SERVICES.map(([name], i) => [name, [github, slack][i].ok ? "yes" : "no"]),
  };
}
