// Statuspage.io summaries of the trackers we depend on.
const STATUS_PAGES = [
  { name: "GitHub", url: "https://www.githubstatus.com/api/v2/status.json" },
  { name: "GitLab", url: "https://status.gitlab.com/api/v2/status.json" },
  { name: "Linear", url: "https://linearstatus.com/api/v2/status.json" },
];

export default async function trackerStatus() {
  const results = await Promise.all(
    STATUS_PAGES.map(async (p) => {
      const res = await http.fetch(p.url); //@hosts(www.githubstatus.com, status.gitlab.com, linearstatus.com)
      const body = await res.json();
      return `${p.name}: ${body.status.description}`;
    }),
  );
  return results.join("\n");
}
