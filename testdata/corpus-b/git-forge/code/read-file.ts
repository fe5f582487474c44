import * as gh from "./lib/github";

export default async function readFile({ repo, path, ref = "main" }: { repo: string; path: string; ref?: string }) {
  const res = await http.fetch(gh.raw(repo, ref, path)); //@hosts(raw.githubusercontent.com)
  return res.text();
}
