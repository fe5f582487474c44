import { build, header, origin, param, path, run } from "./lib/pipeline";

// Typesense Cloud: one node name, a letter per region.
const REGION_LETTER = { us: "a", eu: "b", ap: "c" };

export default async function typesenseSearch({ region, collection, q }) {
  const host = ["xyz-1", REGION_LETTER[region] + "1", "typesense", "net"].join(".");
  const spec = build(
    origin(host),
    path("collections", collection, "documents", "search"),
    param("q", q),
    param("query_by", "title,body"),
    header("X-TYPESENSE-API-KEY", "search-only"),
  );
  const out = await run(spec);
  return (out.hits ?? []).map((h) => h.document);
}
