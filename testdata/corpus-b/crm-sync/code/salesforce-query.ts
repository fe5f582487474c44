// Salesforce lives on the org's own My Domain host.
class SalesforceOrg {
  static readonly API_VERSION = "v60.0";
  readonly #instance: string;

  constructor(instance: string) {
    this.#instance = instance.toLowerCase();
  }

  get instanceUrl() {
    return `https://${this.#instance}.my.salesforce.com`;
  }

  async query(soql: string) {
    const u = new URL(`/services/data/${SalesforceOrg.API_VERSION}/query`, this.instanceUrl);
    u.searchParams.set("q", soql);
    const res = await http.fetch(u); //@hosts(DYNAMIC *.my.salesforce.com)
    return res.json();
  }
}

export default async function salesforceQuery(input: { instance: string; soql: string }) {
  const out = await new SalesforceOrg(input.instance).query(input.soql);
  return { records: out.records ?? [] };
}
