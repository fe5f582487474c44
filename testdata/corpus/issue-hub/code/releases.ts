// Follows GitHub's Link header: rel="next" URLs come from the server.
import { GITHUB_API } from "./lib/config";

function nextLink(header: string | null): string | undefined {
  const m = header?.match(/<([^>]+)>;\s*rel="next"/);
  return m?.[1];
}

export default async function releases({ owner, repo }: { owner: string; repo: string }) {
  const all: { tag_name: string; published_at: string }[] = [];
  let url: string | undefined = `${GITHUB_API}/repos/${owner}/${repo}/releases?per_page=100`;
  while (url && all.length < 500) {
    const res = await http.fetch(url); //@hosts(DYNAMIC)
    all.push(...(await res.json()));
    url = nextLink(res.headers.get("link"));
  }
  return all.map((r) => `${r.tag_name} (${r.published_at.slice(0, 10)})`);
}
