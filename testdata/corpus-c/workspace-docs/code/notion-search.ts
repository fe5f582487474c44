import { linkPages } from "./lib/paginate";

export default async function notionSearch(input: { query: string; kind?: "page" | "database" }) {
  const filter = input.kind ? { filter: { property: "object", value: input.kind } } : {};
  const init = { method: "POST", headers: { "Notion-Version": "2022-06-28" }, body: JSON.stringify({ query: input.query, ...filter }) };
  const titles: string[] = [];
  for await (const r of linkPages("https://api.notion.com/v1/search", init)) titles.push(r?.properties?.title?.title?.[0]?.plain_text ?? r.id);
  return titles;
}
