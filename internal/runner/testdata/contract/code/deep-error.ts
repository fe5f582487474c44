import { loadPrices } from "./lib/fetch-list";

export default async function deepError() {
  const prices = await loadPrices("a,1.50\nb\n");
  return { count: prices.length };
}
