// listIssues: the open issues of owner/repo, optionally with one label.
interface Input {
  repo: string;
  label?: string;
}

interface Issue {
  number: number;
  title: string;
  labels: { name: string }[];
}

export default async function listIssues(input: Input) {
  const q = input.label ? `&labels=${encodeURIComponent(input.label)}` : "";
  const res = await http.fetch(`https://api.github.com/repos/${input.repo}/issues?state=open${q}`);
  if (res.status === 404) {
    throw new Error(`repository ${input.repo} not found (or the token cannot see it)`);
  }
  const issues = (await res.json()) as Issue[];
  return {
    type: "table",
    columns: ["#", "Title", "Labels"],
    rows: issues.map((i) => [i.number, i.title, i.labels.map((l) => l.name).join(", ")]),
  };
}
