// releaseNotes: the latest release of a repository, cached for an hour.
import { GITHUB } from "./lib/github";

type Release = { tag_name: string; body: string; fetchedAt: number };

export default async function releaseNotes(input: { repo: string }) {
  const cached = (await collections.get("releases", input.repo)) as Release | null;
  if (cached && Date.now() - cached.fetchedAt < 3_600_000) {
    return { type: "markdown", text: `## ${cached.tag_name}\n\n${cached.body}` };
  }
  const res = await http.fetch(`${GITHUB.api}/repos/${input.repo}/releases/latest`);
  const release = { ...((await res.json()) as Release), fetchedAt: Date.now() };
  await collections.put("releases", input.repo, release);
  return { type: "markdown", text: `## ${release.tag_name}\n\n${release.body}` };
}
