// A small S3 client in the style of the v3 SDK: a client per region,
// commands sent through an injected fetch.
import { Region, S3Host } from "./regions";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  region: Region;
  fetch: Fetch;
  forcePathStyle?: boolean;
}

export class S3Client {
  static readonly SERVICE = "s3";
  static #instances = new Map<Region, S3Client>();

  #fetch: Fetch;
  #region: Region;
  #pathStyle: boolean;

  private constructor(opts: ClientOptions) {
    this.#fetch = opts.fetch;
    this.#region = opts.region;
    this.#pathStyle = opts.forcePathStyle ?? true;
  }

  static forRegion(region: Region, fetch: Fetch): S3Client {
    let c = S3Client.#instances.get(region);
    if (!c) {
      c = new S3Client({ region, fetch });
      S3Client.#instances.set(region, c);
    }
    return c;
  }

  get host(): S3Host {
    return `s3.${this.#region}.amazonaws.com`;
  }

  get region(): Region {
    return this.#region;
  }

  /** The URL of a bucket (path style) or of an object in it. */
  url(bucket?: string, key?: string): URL {
    const u = new URL("https://localhost/");
    u.hostname = this.#pathStyle || !bucket ? this.host : `${bucket}.${this.host}`;
    u.pathname = this.#pathStyle && bucket ? `/${bucket}/${key ?? ""}` : `/${key ?? ""}`;
    return u;
  }

  virtualHosted(): S3Client {
    const c = new S3Client({ region: this.#region, fetch: this.#fetch, forcePathStyle: false });
    return c;
  }

  async send(method: "GET" | "HEAD", u: URL): Promise<Response> {
    u.searchParams.set("x-id", method === "GET" ? "ListBuckets" : "HeadObject");
    const res = await this.#fetch(u, { method, headers: { "x-amz-content-sha256": "UNSIGNED-PAYLOAD" } }); //@hosts(s3.us-east-1.amazonaws.com, s3.eu-west-1.amazonaws.com, s3.ap-southeast-1.amazonaws.com)
    if (res.status >= 500) throw new Error(`${S3Client.SERVICE} ${res.status}`);
    return res;
  }

  async sendVirtual(method: "GET" | "HEAD", u: URL): Promise<Response> {
    return this.#fetch(u, { method }); //@hosts(DYNAMIC *.s3.*.amazonaws.com)
  }
}
