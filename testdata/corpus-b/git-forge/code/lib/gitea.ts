// GitLab and Gitea/Forgejo (Codeberg) speak different dialects; one namespace each.
export namespace GitLab {
  export const HOST = "gitlab.com";
  export function projectUrl(full: string): string {
    return `https://${HOST}/api/v4/projects/${encodeURIComponent(full)}`;
  }
}

export namespace Forgejo {
  export const instances = { codeberg: "codeberg.org" } as const;
  export function repoUrl(instance: keyof typeof instances, full: string): string {
    return `https://${instances[instance]}/api/v1/repos/${full}`;
  }
}

export async function fetchRepo(url: string, fetcher: (u: string) => Promise<Response>) {
  const r = await (await fetcher(url)).json(); //@hosts(codeberg.org)
  return { stars: r.star_count ?? r.stars_count ?? 0, branch: r.default_branch ?? "main", issues: r.open_issues_count ?? 0 };
}
