// Port of cloudflare-go: NewClient(opts ...Option) with functional options.
export type Options = {
  baseURL: string;
  userAgent: string;
  retryPolicy: { maxRetries: number; minDelayMs: number };
  headers: Record<string, string>;
};
export type Option = (o: Options) => void;

const defaultOptions = (): Options => ({
  baseURL: "https://api.cloudflare.com/client/v4",
  userAgent: "cloudflare-ts/0.2",
  retryPolicy: { maxRetries: 2, minDelayMs: 20 },
  headers: {},
});

export const WithBaseURL = (u: string): Option => (o) => void (o.baseURL = u);
export const WithRetryPolicy = (maxRetries: number, minDelayMs = 20): Option => (o) => void (o.retryPolicy = { maxRetries, minDelayMs });
export const WithHeaders = (h: Record<string, string>): Option => (o) => void (o.headers = { ...o.headers, ...h });

export class API {
  readonly opts: Options;
  private constructor(opts: Options) {
    this.opts = opts;
  }
  static NewClient(...options: Option[]): API {
    const o = defaultOptions();
    for (const opt of options) opt(o);
    return new API(o);
  }

  async makeRequest(method: string, path: string, params?: unknown): Promise<any> {
    const { maxRetries, minDelayMs } = this.opts.retryPolicy;
    let lastErr: unknown;
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      try {
        const res = await http.fetch(this.opts.baseURL + path, { //@hosts(api.cloudflare.com, api.staging.cloudflare.com)
          method,
          headers: { "User-Agent": this.opts.userAgent, "Content-Type": "application/json", ...this.opts.headers },
          body: params === undefined ? undefined : JSON.stringify(params),
        });
        if (res.status < 500) return res.json();
        lastErr = new Error(`HTTP ${res.status}`);
      } catch (e) {
        lastErr = e;
      }
      await new Promise((r) => setTimeout(r, minDelayMs * 2 ** attempt));
    }
    throw lastErr;
  }
}
