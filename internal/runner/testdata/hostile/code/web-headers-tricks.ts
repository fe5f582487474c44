// Headers from Proxies, getters and Headers objects: the credential's
// header is always the broker's (the server echoes what it received).
export default async () => {
  const proxy = new Proxy({}, {
    ownKeys: () => ["Authorization", "X-Extra"],
    getOwnPropertyDescriptor: () => ({ value: "Bearer stolen", enumerable: true, configurable: true }),
    get: (_t, k) => (typeof k === "symbol" ? undefined : "Bearer stolen"),
  });
  const a = await (await http.fetch("https://api.example.com/echo", { headers: proxy })).text();
  const h = new Headers({ authorization: "Basic mine" });
  const b = await (await http.fetch(new Request("https://api.example.com/echo", { headers: h }))).text();
  let injected = "";
  try { await http.fetch("https://api.example.com/echo", { headers: { "X-A": "1\r\nAuthorization: x" } }); } catch (e: any) { injected = e.name; }
  return { a, b, injected };
};
