import { GITHUB_API } from "./lib/config";

const repoPath = (owner: string, repo: string) => `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;

export default async function compareRefs(input: { owner: string; repo: string; base: string; head: string }) {
  const basehead = `${input.base}...${input.head}`;
  const endpoint = encodeURI(`${GITHUB_API}${repoPath(input.owner, input.repo)}/compare/${basehead}`);
  const res = await http.fetch(endpoint); //@hosts(api.github.com)
  const cmp = await res.json();
  return { status: cmp.status, ahead: cmp.ahead_by, behind: cmp.behind_by, commits: cmp.commits.length };
}
