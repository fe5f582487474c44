import { api } from "./lib/client";

export default async function listTickets() {
  const res = await api("/tickets?state=open");
  return await res.json();
}
