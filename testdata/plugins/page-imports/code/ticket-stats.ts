import { api } from "./lib/client";

export default async function ticketStats(input: { region: "us" | "eu" }) {
  const res = await api("/stats", input.region);
  return await res.json();
}
