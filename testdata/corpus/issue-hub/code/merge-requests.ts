import { GITLAB_BASES } from "./lib/config";

type Instance = keyof typeof GITLAB_BASES;

export default async function mergeRequests(input: { project: string; instance?: Instance }) {
  const base = GITLAB_BASES[input.instance ?? "gitlab.com"];
  const project = encodeURIComponent(input.project);
  const res = await http.fetch(`${base}/projects/${project}/merge_requests?state=opened`); //@hosts(gitlab.com, gitlab.eu.example-hosting.com)
  const mrs = (await res.json()) as { iid: number; title: string; author: { username: string } }[];
  return mrs.map((mr) => `!${mr.iid} ${mr.title} (@${mr.author.username})`);
}
