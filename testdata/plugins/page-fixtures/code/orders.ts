// orders: one fetch per fixture case.
const SHOP = "https://shop.example.com";
const init = { method: "DELETE" } as const;

export default async function orders(input: { id: string; verb: string }) {
  await http.fetch(`${SHOP}/orders?status=open`);
  await http.fetch(`${SHOP}/orders`, { method: "POST", body: "{}" });
  await http.fetch(`${SHOP}/orders?status=closed`);
  await http.fetch(`${SHOP}/orders`, { method: "PATCH" });
  await http.fetch(`${SHOP}/orders/1`, init);
  await http.fetch(`${SHOP}/orders`, { method: input.verb });
  await http.fetch(`${SHOP}/orders/${input.id}`);
  return { type: "markdown", text: "ok" };
}
