// A fluent builder that ends in a web Request (or its parts).
type Verb = "GET" | "POST" | "DELETE";

export class RequestBuilder {
  #url?: URL;
  #method: Verb = "GET";
  #headers = new Headers();
  #body?: string | URLSearchParams;

  static to(base: string, path = ""): RequestBuilder {
    const b = new RequestBuilder();
    b.#url = new URL(path, base);
    return b;
  }

  method(m: Verb): this {
    this.#method = m;
    return this;
  }
  header(k: string, v: string): this {
    this.#headers.set(k, v);
    return this;
  }
  query(k: string, v: string | number): this {
    this.#url!.searchParams.set(k, String(v));
    return this;
  }
  json(v: unknown): this {
    this.#headers.set("Content-Type", "application/json");
    this.#body = JSON.stringify(v);
    return this;
  }
  form(v: Record<string, string>): this {
    this.#body = new URLSearchParams(v);
    return this;
  }

  get url(): string {
    return this.#url!.toString();
  }

  build(): Request {
    return new Request(this.#url!.toString(), { method: this.#method, headers: this.#headers, body: this.#body });
  }

  parts(): { url: string; init: RequestInit } {
    return { url: this.url, init: { method: this.#method, headers: this.#headers, body: this.#body } };
  }
}

export async function send(req: Request): Promise<any> {
  const res = await http.fetch(req); //@hosts(api.sendgrid.com, api.postmarkapp.com)
  const text = await res.text();
  return text ? JSON.parse(text) : { status: res.status };
}
