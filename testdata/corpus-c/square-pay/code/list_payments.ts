import { make_config, type Environment } from "./lib/configuration";
import { PaymentsApi } from "./lib/payments_api";

export default async function list_payments({ env, location_id, limit }: { env: Environment; location_id: string; limit?: number }) {
  const api = new PaymentsApi(make_config({ environment: env }));
  const result = await api.list_payments({ location_id, limit });
  return { payments: result.payments ?? [], cursor: result.cursor ?? null };
}
