import { get_token, origin, type Carrier, type Env } from "./lib/carriers";

const RATE_PATHS: Record<Carrier, string> = { ups: "/api/rating/v2403/Rate", fedex: "/rate/v1/rates/quotes", usps: "/prices/v3/base-rates/search" };

export default async function rates({ carrier, env, from_zip, to_zip, weight_lb = 1 }: { carrier: Carrier; env: Env; from_zip: string; to_zip: string; weight_lb?: number }) {
  const token = await get_token(carrier, env);
  const res = await http.fetch(origin(carrier, env).concat(RATE_PATHS[carrier]), { //@hosts(onlinetools.ups.com, wwwcie.ups.com, apis.fedex.com, apis-sandbox.fedex.com, apis.usps.com, apis-tem.usps.com)
    method: "POST",
    headers: { Authorization: "Bearer ".concat(token), "Content-Type": "application/json" },
    body: JSON.stringify({ from_zip, to_zip, weight_lb }),
  });
  const body = await res.json();
  return { carrier, env, rates: body?.RateResponse?.RatedShipment ?? body?.output?.rateReplyDetails ?? body?.rates ?? [] };
}
