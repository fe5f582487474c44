// A pocket Octokit: request("GET /repos/{owner}/{repo}/issues", { owner, repo }).
import { GITHUB_API, USER_AGENT } from "./config";

type Params = Record<string, string | number | undefined>;

export class Octokit {
  baseUrl: string;
  constructor({ baseUrl = GITHUB_API }: { baseUrl?: string } = {}) {
    this.baseUrl = baseUrl;
  }

  async request<T = any>(route: string, params: Params = {}, body?: unknown): Promise<T> {
    const [method, template] = route.split(" ");
    const used = new Set<string>();
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      used.add(name);
      return encodeURIComponent(String(params[name]));
    });
    const query = Object.entries(params)
      .filter(([k, v]) => !used.has(k) && v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join("&");
    const res = await http.fetch(this.baseUrl + path + (query ? `?${query}` : ""), { //@hosts(api.github.com)
      method,
      headers: { Accept: "application/vnd.github+json", "User-Agent": USER_AGENT, "X-GitHub-Api-Version": "2022-11-28" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 400) throw new Error(`${route}: ${res.status}`);
    return (await res.json()) as T;
  }
}

export const octokit = new Octokit();
