// The status is read from a host written out (static analysis sees it);
// the mirror's host is in a Map registry and fetched through an injected
// function, which static analysis does not follow: exploration finds it.
const MIRRORS = new Map<string, string>();
MIRRORS.set("main", ["mirror", "example", "org"].join("."));

async function via(get: typeof http.fetch, url: string) {
  return get(url);
}

export default async function mirror() {
  const status = await http.fetch("https://status.example.net/v1");
  const copy = await via(http.fetch, "https://" + MIRRORS.get("main") + "/v1");
  return { status: status.status, mirror: copy.status };
}
