// Algolia's DSN host is per application.
const HOST_TEMPLATE = "https://{appId}-dsn.algolia.net/1/indexes/{index}/query";

export default async function algoliaSearch(input: { appId: string; index: string; query: string }) {
  const url = Object.entries({ appId: input.appId.toLowerCase(), index: encodeURIComponent(input.index) }).reduce(
    (u, [k, v]) => u.replace(`{${k}}`, v),
    HOST_TEMPLATE,
  );
  const res = await http.fetch(url, { method: "POST", body: { params: `query=${encodeURIComponent(input.query)}` } }); //@hosts(DYNAMIC *-dsn.algolia.net)
  const { hits = [], nbHits = 0 } = await res.json();
  return { nbHits, hits };
}
