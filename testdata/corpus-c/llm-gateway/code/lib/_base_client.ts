// openai-python's _base_client, ported: options dicts merged with **kwargs,
// retries with jittered exponential backoff.
export type ClientOptions = {
  base_url: string;
  max_retries?: number;
  timeout_ms?: number;
  default_headers?: Record<string, string>;
  default_query?: Record<string, string>;
};

const DEFAULTS = { max_retries: 2, timeout_ms: 600_000, default_headers: {}, default_query: {} } satisfies Partial<ClientOptions>;

const _calculate_retry_timeout = (retries_taken: number) => Math.min(0.5 * 2 ** retries_taken, 8) * (1 - Math.random() * 0.25);

export class SyncAPIClient {
  readonly options: Required<ClientOptions>;
  constructor(options: ClientOptions) {
    this.options = { ...DEFAULTS, ...options } as Required<ClientOptions>;
  }

  _build_url(path: string, query?: Record<string, string>): string {
    const params = new URLSearchParams({ ...this.options.default_query, ...(query ?? {}) }).toString();
    return this.options.base_url.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "") + (params ? `?${params}` : "");
  }

  async request(method: "GET" | "POST", path: string, { body, query, headers = {} }: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const url = this._build_url(path, query);
    let retries_taken = 0;
    while (true) {
      const response = await http.fetch(url, { //@hosts(api.openai.com, api.groq.com, api.mistral.ai, api.together.xyz, DYNAMIC *.openai.azure.com)
        method,
        headers: { "Content-Type": "application/json", ...this.options.default_headers, ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const should_retry = response.status === 408 || response.status === 429 || response.status >= 500;
      if (!should_retry || retries_taken >= this.options.max_retries) return response.json();
      await new Promise((r) => setTimeout(r, _calculate_retry_timeout(retries_taken) * 1000));
      retries_taken++;
    }
  }
}
