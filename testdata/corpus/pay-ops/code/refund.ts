import { stripe } from "./lib/stripe";

export default async (input: { charge: string }) => {
  const r = await stripe.refunds.create({ charge: input.charge });
  return `refund ${r.id}: ${r.status}`;
};
