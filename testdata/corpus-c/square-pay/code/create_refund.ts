import { make_config } from "./lib/configuration";
import { RefundsApi } from "./lib/payments_api";

export default async function create_refund(input: { env?: "production" | "sandbox"; payment_id: string; amount: number }) {
  const settings = { max_retries: 0, ...(input.env ? { environment: input.env } : {}) };
  const refunds = new RefundsApi(make_config(settings));
  const result = await refunds.refund_payment({
    idempotency_key: crypto.randomUUID(),
    payment_id: input.payment_id,
    amount_money: { amount: input.amount, currency: "USD" },
  });
  return result.refund?.status ?? result.status;
}
