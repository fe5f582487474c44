import { Config, make_config } from "./configuration";
import { execute_request } from "./api_helper";

export class PaymentsApi {
  constructor(private readonly config: Config = make_config()) {}

  list_payments({ location_id, limit = 20, sort_order = "DESC" }: { location_id: string; limit?: number; sort_order?: string }) {
    return execute_request(this.config, { http_method: "GET", path: "/v2/payments", query_parameters: { location_id, limit, sort_order } });
  }
}

export class RefundsApi {
  constructor(private readonly config: Config = make_config()) {}

  refund_payment(body: { idempotency_key: string; payment_id: string; amount_money: { amount: number; currency: string } }) {
    return execute_request(this.config, { http_method: "POST", path: "/v2/refunds", body });
  }
}
