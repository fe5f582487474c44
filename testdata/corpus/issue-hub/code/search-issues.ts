import { GITHUB_API } from "./lib/config";

export default async function searchIssues({ q }: { q: string }) {
  const url = new URL("/search/issues", GITHUB_API);
  url.searchParams.set("q", q);
  url.searchParams.set("per_page", "20");
  const res = await http.fetch(url.toString(), { headers: { Accept: "application/vnd.github.text-match+json" } }); //@hosts(api.github.com)
  const { total_count, items } = await res.json();
  return { total: total_count, items: items.map((i: any) => `${i.repository_url.split("/").slice(-2).join("/")}#${i.number} ${i.title}`) };
}
