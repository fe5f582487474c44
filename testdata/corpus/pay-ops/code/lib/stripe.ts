// stripe-node style: a resource object per API, a form-encoded request under /v1.
function formEncode(params: Record<string, unknown>, prefix = ""): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      const key = prefix ? `${prefix}[${k}]` : k;
      return typeof v === "object" && v !== null
        ? formEncode(v as Record<string, unknown>, key)
        : `${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`;
    })
    .join("&");
}

export class Stripe {
  constructor(private readonly host: string = "api.stripe.com", private readonly apiVersion = "2024-06-20") {}

  async request<T>(method: "GET" | "POST" | "DELETE", path: string, params: Record<string, unknown> = {}): Promise<T> {
    const body = formEncode(params);
    const url = `https://${this.host}/v1${path}` + (method === "GET" && body ? `?${body}` : "");
    const res = await http.fetch(url, { //@hosts(api.stripe.com, files.stripe.com)
      method,
      headers: { "Stripe-Version": this.apiVersion, "Content-Type": "application/x-www-form-urlencoded" },
      body: method === "GET" ? undefined : body,
    });
    const json = await res.json();
    if (json.error) throw new Error(`Stripe: ${json.error.message}`);
    return json as T;
  }

  paymentIntents = {
    create: (params: { amount: number; currency: string }) => this.request<{ id: string; status: string }>("POST", "/payment_intents", params),
  };

  refunds = {
    create: (params: { charge: string }) => this.request<{ id: string; status: string }>("POST", "/refunds", params),
  };

  customers = {
    list: (params: { limit?: number } = {}) => this.request<{ data: { id: string; email: string }[] }>("GET", "/customers", params),
  };
}

export const stripe = new Stripe();
export const stripeFiles = new Stripe("files.stripe.com");
