import { stripe } from "./lib/stripe";

export default async function listCustomers() {
  const { data } = await stripe.customers.list({ limit: 25 });
  return { type: "table", columns: ["id", "email"], rows: data.map((c) => [c.id, c.email]) };
}
