// Tile URLs are URL objects whose parts are set one by one.
export class TileEndpoint {
  #url: URL;
  private constructor(origin: string) {
    this.#url = new URL(origin);
  }
  static mapbox(): TileEndpoint {
    return new TileEndpoint("https://api.mapbox.com");
  }
  static selfHosted(host: string, port?: number): TileEndpoint {
    const t = new TileEndpoint("https://localhost");
    t.#url.hostname = host;
    if (port && port !== 443) t.#url.port = String(port);
    return t;
  }
  style(id: string, retina = false): this {
    this.#url.pathname = `/styles/v1/mapbox/${id}`;
    if (retina) this.#url.searchParams.set("scale", "2");
    return this;
  }
  tileJson(): this {
    this.#url.pathname = "/index.json";
    return this;
  }
  get href(): string {
    return this.#url.href;
  }
  async #get(): Promise<Response> {
    return http.fetch(this.#url.href); //@hosts(api.mapbox.com)
  }
  /** A self-hosted server may not allow GET on the index: HEAD it. */
  async probe(): Promise<number> {
    const res = await http.fetch(this.#url, { method: "HEAD" }); //@hosts(DYNAMIC)
    return res.status;
  }
  async status(): Promise<number> {
    return (await this.#get()).status;
  }
}
