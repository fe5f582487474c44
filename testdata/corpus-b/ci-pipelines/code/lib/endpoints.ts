export enum Provider {
  CircleCI = "circleci",
  Buildkite = "buildkite",
  GitHub = "github",
}

type Route = `${Provider}:${"latest" | "trigger"}`;

/** Every route the plugin calls, by provider and action. */
export const ROUTES = new Map<Route, (project: string) => string>([
  ["circleci:latest", (p) => `https://circleci.com/api/v2/project/${p}/pipeline?page-token=`],
  ["circleci:trigger", (p) => `https://circleci.com/api/v2/project/${p}/pipeline`],
  ["buildkite:latest", (p) => `https://api.buildkite.com/v2/organizations/${p.split("/")[0]}/pipelines/${p.split("/")[1]}/builds?per_page=1`],
  ["buildkite:trigger", (p) => `https://api.buildkite.com/v2/organizations/${p.split("/")[0]}/pipelines/${p.split("/")[1]}/builds`],
  ["github:latest", (p) => `https://api.github.com/repos/${p}/actions/runs?per_page=1`],
]);

export function route(provider: Provider, action: "latest" | "trigger", project: string): string {
  const r = ROUTES.get(`${provider}:${action}`);
  if (!r) throw new Error(`${provider} has no ${action} route`);
  return r(project);
}
