import { endpoints } from "./lib/index";

class StatusProbe {
  static readonly #accept = { Accept: "application/json" };
  readonly #url: string;
  private constructor(url: string) {
    this.#url = url;
  }
  static for(provider: endpoints.Provider, project: string) {
    return new StatusProbe(endpoints.route(provider, "latest", project));
  }
  async latest() {
    const res = await http.fetch(this.#url, { headers: StatusProbe.#accept }); //@hosts(circleci.com, api.buildkite.com, api.github.com)
    const b = await res.json();
    return b.items?.[0]?.state ?? b[0]?.state ?? b.workflow_runs?.[0]?.status ?? "unknown";
  }
}

export default async function pipelineStatus(input: { provider: "circleci" | "buildkite" | "github"; project: string }) {
  return { status: await StatusProbe.for(input.provider as endpoints.Provider, input.project).latest() };
}
