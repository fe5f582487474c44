import { github, gitea, type Forge } from "./lib/index";

export default async function repoInfo(input: { forge: Forge; repo: string }) {
  switch (input.forge) {
    case "github":
      return github.repo(new github.Octo({ fetch: http.fetch }), input.repo);
    case "gitlab":
      return gitea.fetchRepo(gitea.GitLab.projectUrl(input.repo), (u) => http.fetch(u)); //@hosts(gitlab.com)
    case "codeberg":
      return gitea.fetchRepo(gitea.Forgejo.repoUrl("codeberg", input.repo), http.fetch.bind(http));
  }
}
