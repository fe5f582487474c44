import { octokit } from "./lib/octokit";

export default async function listIssues({ owner, repo }: { owner: string; repo: string }) {
  const issues = await octokit.request<{ number: number; title: string; labels: { name: string }[] }[]>(
    "GET /repos/{owner}/{repo}/issues",
    { owner, repo, state: "open", per_page: 30 },
  );
  return issues.map((i) => ({ number: i.number, title: i.title, labels: i.labels.map((l) => l.name) }));
}
