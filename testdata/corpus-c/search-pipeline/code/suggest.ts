import { build, origin, param, path, run } from "./lib/pipeline";
import { pick } from "./lib/u.js";

const ENGINES = {
  meili: { host: "ms-docs.meilisearch.io", index: "docs" },
  docsearch: { host: "search.example-docs.io", index: "site" },
} as const;

export default async function suggest({ prefix, engine = "meili" }: { prefix: string; engine?: keyof typeof ENGINES }) {
  const { host, index } = ENGINES[engine];
  if (engine === "docsearch") {
    const url = ["https:/", host, "v1", index, "suggest"].join("/") + "?q=" + encodeURIComponent(prefix);
    const res = await http.fetch(url); //@hosts(search.example-docs.io)
    return (await res.json()).results;
  }
  const out = await run(build(origin(host), path("indexes", index, "search")), { q: prefix, limit: 5 });
  return (out.hits ?? []).map((h: any) => pick(h, "title", "url"));
}
