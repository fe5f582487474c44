package tstypes

// webGlobals are the web-platform globals of the sandbox, declared as the
// WHATWG specs (and TypeScript's lib.dom) shape them. The sandbox gains
// them in internal/runner/sandbox (see docs/host-api.md); this list must name the
// same globals.
const webGlobals = `
interface URLSearchParams {
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  forEach(callbackfn: (value: string, key: string, parent: URLSearchParams) => void): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
  toString(): string;
}
var URLSearchParams: {
  prototype: URLSearchParams;
  new (init?: string[][] | Record<string, string> | string | URLSearchParams): URLSearchParams;
};
interface URL {
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
  toJSON(): string;
}
var URL: {
  prototype: URL;
  new (url: string | URL, base?: string | URL): URL;
  canParse(url: string | URL, base?: string | URL): boolean;
  parse(url: string | URL, base?: string | URL): URL | null;
};
interface TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
interface TextDecoder {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBuffer | ArrayBufferView, options?: { stream?: boolean }): string;
}
var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};
interface Headers {
  append(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  forEach(callbackfn: (value: string, key: string, parent: Headers) => void): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
var Headers: {
  prototype: Headers;
  new (init?: [string, string][] | Record<string, string> | Headers): Headers;
};
function atob(data: string): string;
function btoa(data: string): string;
/** A structured clone in the same realm (no transfer list). */
function structuredClone<T>(value: T): T;
function queueMicrotask(callback: () => void): void;
const performance: { now(): number };
interface DOMException extends Error {
  readonly name: string;
  readonly message: string;
  readonly code: number;
}
var DOMException: {
  prototype: DOMException;
  new (message?: string, name?: string): DOMException;
};
/** An abort signal; http.fetch honours it (the call rejects with signal.reason). */
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: any;
  onabort: ((this: AbortSignal, ev: { type: "abort" }) => any) | null;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: (this: AbortSignal, ev: { type: "abort" }) => any, options?: boolean | { once?: boolean }): void;
  removeEventListener(type: "abort", listener: (this: AbortSignal, ev: { type: "abort" }) => any): void;
}
var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: any): AbortSignal;
  timeout(milliseconds: number): AbortSignal;
  any(signals: Iterable<AbortSignal>): AbortSignal;
};
interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: any): void;
}
var AbortController: { prototype: AbortController; new (): AbortController };
/** A request or response body: a text read once (bodyUsed), no streams. */
type BodyInit = string | URLSearchParams | ArrayBuffer | ArrayBufferView | object;
type HeadersInit = Headers | Record<string, string> | [string, string][];
interface RequestInit {
  /** GET (default), HEAD, POST, PUT, PATCH, DELETE, OPTIONS. */
  method?: string;
  /** A credential's header is set by the host and overrides yours. */
  headers?: HeadersInit;
  /** A string as is; URLSearchParams as form data; bytes must be UTF-8 text; anything else as JSON. */
  body?: BodyInit | null;
  /** Rejects the call with signal.reason when it aborts. */
  signal?: AbortSignal | null;
}
interface Body {
  readonly bodyUsed: boolean;
  text(): Promise<string>;
  json(): Promise<any>;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
}
interface Request extends Body {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
  readonly redirect: "manual";
  clone(): Request;
}
var Request: {
  prototype: Request;
  new (input: string | URL | Request, init?: RequestInit): Request;
};
interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}
/** What http.fetch resolves to. Redirects are never followed: a 3xx comes back as it is. */
interface Response extends Body {
  readonly status: number;
  /** status is 200–299. */
  readonly ok: boolean;
  readonly statusText: string;
  readonly url: string;
  readonly redirected: boolean;
  readonly type: string;
  /** Immutable; res.headers["content-type"] works too (lower-case names). */
  readonly headers: Headers & { readonly [name: string]: any };
  clone(): Response;
}
var Response: {
  prototype: Response;
  new (body?: BodyInit | null, init?: ResponseInit): Response;
  json(data: any, init?: ResponseInit): Response;
};
/** Random values from the host (Go's crypto/rand); there is no crypto.subtle. */
const crypto: {
  /** At most 65,536 bytes per call. */
  getRandomValues<T extends Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array>(array: T): T;
  randomUUID(): ` + "`${string}-${string}-${string}-${string}-${string}`" + `;
};
`
