// Every CRM adapter derives from BaseApi and says where it lives.
export abstract class BaseApi {
  static readonly USER_AGENT = "crm-sync/2.1";
  protected abstract get baseUrl(): string;
  protected get apiPrefix(): string {
    return "/v1";
  }

  protected async get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    const qs = new URLSearchParams(query).toString();
    const url = `${this.baseUrl}${this.apiPrefix}${path}${qs ? "?" + qs : ""}`;
    const res = await http.fetch(url, { headers: { "User-Agent": BaseApi.USER_AGENT } }); //@hosts(api.hubapi.com, api.pipedrive.com, api.close.com)
    if (!res.ok) throw new Error(`${this.constructor.name}: HTTP ${res.status}`);
    return res.json() as Promise<T>;
  }

  abstract findByEmail(email: string): Promise<{ id: string } | null>;
  abstract stages(): Promise<string[]>;
}
