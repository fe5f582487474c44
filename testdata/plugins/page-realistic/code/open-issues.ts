// openIssues: the open issues of owner/repo (the token is brokered).
interface Issue {
  number: number;
  title: string;
  pull_request?: unknown;
}

const API = { base: "https://api.github.com", perPage: 50 } as const;

export default async function openIssues({ repo }: { repo: string }) {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    throw new Error(`"${repo}" is not owner/repo`);
  }
  const res = await http.fetch(`${API.base}/repos/${repo}/issues?state=open&per_page=${API.perPage}`, {
    headers: { Accept: "application/vnd.github+json" },
  });
  const issues = ((await res.json()) as Issue[]).filter((i) => !i.pull_request);
  return {
    type: "table",
    columns: ["#", "Title"],
    rows: issues.map((i) => [i.number, i.title]),
  };
}
