import { paypalBase } from "./lib/paypal";

export default async function paypalOrder(input: { value: string; sandbox?: boolean }) {
  const base = paypalBase(input.sandbox === true);
  const res = await http.fetch(`${base}/v2/checkout/orders`, { //@hosts(api-m.paypal.com, api-m.sandbox.paypal.com)
    method: "POST",
    headers: { "Content-Type": "application/json", Prefer: "return=representation" },
    body: JSON.stringify({
      intent: "CAPTURE",
      purchase_units: [{ amount: { currency_code: "EUR", value: input.value } }],
    }),
  });
  const order = await res.json();
  return { id: order.id, approve: order.links.find((l: any) => l.rel === "payer-action")?.href };
}
