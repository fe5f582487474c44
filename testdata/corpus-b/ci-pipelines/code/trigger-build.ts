import { Provider, route } from "./lib/endpoints";

export default async function triggerBuild({ provider, project, branch = "main" }: { provider: "circleci" | "buildkite"; project: string; branch?: string }) {
  const base = new Request(route(provider as Provider, "trigger", project), { headers: { "Content-Type": "application/json" } });
  const body = provider === "circleci" ? { branch } : { commit: "HEAD", branch, message: "triggered by agent" };
  const req = new Request(base, { method: "POST", body: JSON.stringify(body) });
  const res = await http.fetch(req); //@hosts(circleci.com, api.buildkite.com)
  return { status: res.status };
}
