import { Octokit } from "./lib/octokit";

const gh = new Octokit({ baseUrl: "https://api.github.com" });

export default async function createIssue(input: { owner: string; repo: string; title: string; body?: string }) {
  const { owner, repo, ...fields } = input;
  const issue = await gh.request("POST /repos/{owner}/{repo}/issues", { owner, repo }, fields);
  return `Created #${issue.number}: ${issue.html_url}`;
}
