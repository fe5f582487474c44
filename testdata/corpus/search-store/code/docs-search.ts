// algoliasearch style: hosts derived from the application id.
const APP_ID = "LATENCY";
const INDEX = "docs";

function hosts(appId: string) {
  return [`${appId.toLowerCase()}-dsn.algolia.net`, `${appId.toLowerCase()}-1.algolianet.com`];
}

export default async function docsSearch({ query }: { query: string }) {
  let lastError: unknown;
  for (const host of hosts(APP_ID)) {
    try {
      const res = await http.fetch(`https://${host}/1/indexes/${INDEX}/query`, { //@hosts(latency-dsn.algolia.net, latency-1.algolianet.com)
        method: "POST",
        headers: { "X-Algolia-Application-Id": APP_ID, "Content-Type": "application/json" },
        body: JSON.stringify({ query, hitsPerPage: 8 }),
      });
      const { hits } = await res.json();
      return hits.map((h: any) => `${h.hierarchy?.lvl1 ?? h.title} — ${h.url}`);
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError;
}
