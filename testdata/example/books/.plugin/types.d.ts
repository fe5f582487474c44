// The host API a function tool's page sees, for the TypeScript service of
// an editor (the sandbox itself ignores this file). Stand-in until
// `plugin-lsp types` generates it from the host-method catalogue and the
// tools' inputJsonSchema.

interface PluginFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface PluginFetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly url: string;
  text(): Promise<string>;
  json(): Promise<any>;
}

declare const http: {
  /** A brokered fetch: https only, to a domain in capabilities.fetch; no redirects. */
  fetch(url: string, init?: PluginFetchInit): Promise<PluginFetchResponse>;
};

declare const collections: {
  /** The stored value, or null. */
  get(collection: string, key: string): any;
  put(collection: string, key: string, value: unknown): true;
  /** Whether the key existed. */
  delete(collection: string, key: string): boolean;
  /** Entries sorted by key; `where` keeps values whose top-level fields equal its fields. */
  query(collection: string, where?: Record<string, unknown> & { limit?: number }): Array<{ key: string; value: any }>;
};

declare const console: {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
};
