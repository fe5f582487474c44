import { Geocoder, Market, type ProviderName } from "./lib/providers";

export default async function geocode(input: { q: string; provider: ProviderName; market?: "global" | "china" }) {
  const g = Geocoder.create(input.provider, input.market === "china" ? Market.China : Market.Global);
  const res = await http.fetch(g.url(input.q)); //@hosts(api.mapbox.com, api.mapbox.cn, geocode.search.hereapi.com, api.tomtom.com)
  const body = await res.json();
  return { provider: input.provider, market: Market[input.market === "china" ? Market.China : Market.Global], results: body.items ?? body.results ?? [] };
}
