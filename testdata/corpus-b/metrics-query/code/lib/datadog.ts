import { Site } from "./sites";
import type { FetchLike } from "./retry";

export class Datadog {
  static readonly API_PREFIX = "/api/v1";
  static #default?: Datadog;

  readonly #site: Site;
  readonly #fetch: FetchLike;

  constructor(site: Site, fetch: FetchLike) {
    this.#site = site;
    this.#fetch = fetch;
  }

  static get default(): Datadog {
    return (Datadog.#default ??= new Datadog(Site.US1, (u, i) => http.fetch(u, i))); //@hosts(api.datadoghq.com)
  }

  get apiHost(): string {
    return `api.${this.#site}`;
  }

  endpoint(path: string): URL {
    const u = new URL("https://example.invalid");
    u.host = this.apiHost;
    u.pathname = Datadog.API_PREFIX + path;
    return u;
  }

  async call(u: URL, init?: RequestInit) {
    const res = await this.#fetch(u, init);
    return res.json();
  }

  query(q: string, fromSec: number, toSec: number) {
    const u = this.endpoint("/query");
    u.searchParams.set("query", q);
    u.searchParams.set("from", String(fromSec));
    u.searchParams.set("to", String(toSec));
    return this.call(u);
  }

  event(title: string) {
    return this.call(this.endpoint("/events"), { method: "POST", body: JSON.stringify({ title, text: title }) });
  }
}
