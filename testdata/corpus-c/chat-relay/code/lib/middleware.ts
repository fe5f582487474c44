// Koa-style middleware around a fetch: each layer takes the next handler.
export type Handler = (url: string, init: RequestInit) => Promise<Response>;
export type Middleware = (next: Handler) => Handler;

export const compose = (...layers: Middleware[]) => (terminal: Handler): Handler =>
  layers.reduceRight((next, layer) => layer(next), terminal);

export const userAgent = (ua: string): Middleware => (next) => (url, init) =>
  next(url, { ...init, headers: { ...(init.headers as Record<string, string>), "User-Agent": ua } });

export const json: Middleware = (next) => (url, init) =>
  next(url, { ...init, headers: { "Content-Type": "application/json; charset=utf-8", ...(init.headers as Record<string, string>) } });

export const retryOn429 = (max = 2): Middleware => (next) => async (url, init) => {
  let res = await next(url, init);
  for (let i = 0; i < max && res.status === 429; i++) {
    const wait = Number(res.headers.get("retry-after") ?? "1");
    await new Promise((r) => setTimeout(r, wait * 10));
    res = await next(url, init);
  }
  return res;
};

export const logging: Middleware = (next) => async (url, init) => {
  const t0 = performance.now();
  const res = await next(url, init);
  console.debug(`${init.method ?? "GET"} ${url} ${res.status} ${Math.round(performance.now() - t0)}ms`);
  return res;
};

/** The terminal handler: the host's fetch. */
export const terminal: Handler = (url, init) => http.fetch(url, init); //@hosts(slack.com, discord.com, api.telegram.org, graph.microsoft.com, login.microsoftonline.com)

export const client = compose(logging, retryOn429(), userAgent("chat-relay/0.5"), json)(terminal);
