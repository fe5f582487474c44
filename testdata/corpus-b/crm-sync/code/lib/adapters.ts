import { BaseApi } from "./base";

export class HubSpot extends BaseApi {
  protected get baseUrl() {
    return "https://api.hubapi.com";
  }
  protected get apiPrefix() {
    return "/crm/v3";
  }
  async findByEmail(email: string) {
    const r = await this.get<{ results: { id: string }[] }>("/objects/contacts/search", { email });
    return r.results[0] ?? null;
  }
  async stages() {
    const r = await this.get<{ results: { label: string }[] }>("/pipelines/deals");
    return r.results.map((s) => s.label);
  }
}

export class Pipedrive extends BaseApi {
  protected get baseUrl() {
    return "https://api.pipedrive.com";
  }
  async findByEmail(email: string) {
    const r = await this.get<{ data: { items: { item: { id: string } }[] } }>("/persons/search", { term: email, fields: "email" });
    return r.data?.items?.[0]?.item ?? null;
  }
  async stages() {
    const r = await this.get<{ data: { name: string }[] }>("/stages");
    return r.data.map((s) => s.name);
  }
}

export class Close extends Pipedrive {
  protected get baseUrl() {
    return "https://api.close.com";
  }
  protected get apiPrefix() {
    return "/api/v1";
  }
}

/** The registry the tools pick an adapter from. */
export const registry = new Map<string, () => BaseApi>([
  ["hubspot", () => new HubSpot()],
  ["pipedrive", () => new Pipedrive()],
  ["close", () => new Close()],
]);

export function adapter(name: string): BaseApi {
  const make = registry.get(name);
  if (!make) throw new Error(`unknown CRM ${name}`);
  return make();
}
