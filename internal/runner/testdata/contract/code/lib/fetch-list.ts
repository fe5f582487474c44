import { parseLine } from "./parse";

export async function loadPrices(text: string) {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return lines.map((l) => parseLine(l));
}

export async function fetchPrices(url: string) {
  const res = await http.fetch(url, { headers: { Accept: "text/csv" } });
  return res.body;
}
