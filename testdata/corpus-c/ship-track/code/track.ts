import { origin, type Carrier } from "./lib/carriers";

const PATTERNS: [RegExp, Carrier, string][] = [
  [/^1Z[0-9A-Z]{16}$/, "ups", "/api/track/v1/details/{n}"],
  [/^(94|93|92|95)\d{20}$/, "usps", "/tracking/v3/tracking/{n}"],
  [/^\d{12}$/, "fedex", "/track/v1/trackingnumbers?n={n}"],
];

export default async function track({ tracking_number }: { tracking_number: string }) {
  const n = tracking_number.replace(/\s+/g, "").toUpperCase();
  const [, carrier, template] = PATTERNS.find(([re]) => re.test(n)) ?? [null, "ups", PATTERNS[0][2]];
  const url = origin(carrier).concat(template.replace("{n}", encodeURIComponent(n)));
  const res = await http.fetch(url, { method: carrier === "fedex" ? "POST" : "GET" }); //@hosts(onlinetools.ups.com, apis.usps.com, apis.fedex.com)
  const body = await res.json();
  return { carrier, events: body?.trackResponse?.shipment?.[0]?.package?.[0]?.activity ?? body?.trackingEvents ?? [] };
}
