// Wraps a fetch so 429 and 5xx are retried with a short backoff.
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function withRetry(inner: FetchLike, attempts = 3): FetchLike {
  return async function retrying(input, init) {
    let last: Response | undefined;
    for (let i = 0; i < attempts; i++) {
      last = await inner(input, init); //@hosts(api.datadoghq.com, api.us3.datadoghq.com, api.us5.datadoghq.com, api.datadoghq.eu, data.mixpanel.com, data-eu.mixpanel.com, data-in.mixpanel.com)
      if (last.status !== 429 && last.status < 500) return last;
      await new Promise((r) => setTimeout(r, 50 * 2 ** i));
    }
    return last!;
  };
}
