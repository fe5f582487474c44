const BRAVE = {
  baseUrl: "https://api.search.brave.com/res/v1",
};

export default async function webSearch({ q, count = 5 }: { q: string; count?: number }) {
  const url = `${BRAVE.baseUrl}/web/search?q=${encodeURIComponent(q)}&count=${count}`;
  const res = await http.fetch(url, { headers: { Accept: "application/json" } }); //@hosts(api.search.brave.com)
  const { web } = await res.json();
  return web.results.map((r: any) => ({ title: r.title, url: r.url }));
}
