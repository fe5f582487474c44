// A client whose paths are property accesses: api.v0.meta.whoami.get()
// → GET {base}/v0/meta/whoami. Built on Proxy, like many generated SDKs.
type Call = (init?: { query?: Record<string, string>; body?: unknown }) => Promise<any>;
export type Api = { [segment: string]: Api } & { get: Call; post: Call; patch: Call };

const VERBS = new Set(["get", "post", "patch", "delete"]);

export function createClient(base: string, headers: Record<string, string> = {}): Api {
  const at = (segments: string[]): Api =>
    new Proxy(function () {} as unknown as Api, {
      get(_t, prop: string) {
        if (VERBS.has(prop)) {
          return async ({ query, body }: { query?: Record<string, string>; body?: unknown } = {}) => {
            const qs = query ? "?" + new URLSearchParams(query) : "";
            const res = await http.fetch(`${base}/${segments.map(encodeURIComponent).join("/")}${qs}`, { //@hosts(api.airtable.com, api.notion.com, coda.io)
              method: prop.toUpperCase(),
              headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
              body: body ? JSON.stringify(body) : undefined,
            });
            return res.json();
          };
        }
        return at([...segments, prop]);
      },
    });
  return at([]);
}

export const airtable = createClient("https://api.airtable.com");
export const notion = createClient("https://api.notion.com", { "Notion-Version": "2022-06-28" });
export const coda = createClient("https://coda.io/apis");
