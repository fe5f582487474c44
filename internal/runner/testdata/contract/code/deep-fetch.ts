import { fetchPrices } from "./lib/fetch-list";

export default async function deepFetch() {
  const text = await fetchPrices("https://api.other.example/prices.csv");
  return { text };
}
