// Objects are served by our CDN; the origin is the raw bucket.
const ORIGIN = new URL("https://objects.example-bucket.com/");

function cdnFor(origin: URL): URL {
  const u = new URL(origin.href);
  u.host = "cdn.example-bucket.com";
  return u;
}

export default async function publicUrl(input: { key: string; cdn?: boolean }) {
  const base = input.cdn ? cdnFor(ORIGIN) : ORIGIN;
  const u = new URL(base.href);
  u.pathname = "/" + encodeURIComponent(input.key);
  const res = await http.fetch(u, { method: "HEAD" }); //@hosts(objects.example-bucket.com, cdn.example-bucket.com)
  return { url: u.href, status: res.status };
}
