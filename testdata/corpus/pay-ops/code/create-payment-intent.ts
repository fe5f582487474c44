import { stripe } from "./lib/stripe";

export default async function createPaymentIntent({ amount, currency }: { amount: number; currency: string }) {
  const pi = await stripe.paymentIntents.create({ amount, currency: currency.toLowerCase() });
  return { id: pi.id, status: pi.status };
}
