// Octokit-like: a request function with the method bound first.
import type { Fetcher, Method, RepoPath } from "./types";

export const API = "https://api.github.com";
export const UPLOADS = "https://uploads.github.com";

export class Octo {
  #fetch: Fetcher;
  #base: string;
  constructor({ fetch, baseUrl = API }: { fetch: Fetcher; baseUrl?: string }) {
    this.#fetch = fetch;
    this.#base = baseUrl;
  }
  request(method: Method, path: string, body?: unknown): Promise<Response> {
    return this.#fetch(this.#base + path, { //@hosts(api.github.com, uploads.github.com)
      method,
      headers: { Accept: "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  get = this.request.bind(this, "GET");
  post = this.request.bind(this, "POST");
}

export async function repo(octo: Octo, full: string) {
  const path: RepoPath = `/repos/${full}` as RepoPath;
  const r = await (await octo.get(path)).json();
  return { stars: r.stargazers_count ?? 0, branch: r.default_branch ?? "main", issues: r.open_issues_count ?? 0 };
}

export const raw = (full: string, ref: string, file: string) =>
  `https://raw.githubusercontent.com/${full}/${ref}/${file}`;
