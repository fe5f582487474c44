import { build, origin, param, path, run } from "./lib/pipeline";

const CLUSTERS = ["xyz-1.a1.typesense.net", "xyz-1.b1.typesense.net"];

export default async function facetCounts({ facets = ["brand"] }: { facets?: string[] }) {
  const results = await Promise.all(
    CLUSTERS.map((host) =>
      run([origin(host), path("collections", "products", "documents", "search"), param("q", "*"), param("facet_by", facets.join(","))].reduce(
        (spec, step) => step(spec),
        build(),
      )),
    ),
  );
  return results.map((r, i) => ({ cluster: CLUSTERS[i], found: r.found ?? 0 }));
}
