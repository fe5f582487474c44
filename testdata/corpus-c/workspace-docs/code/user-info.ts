import { airtable, coda, notion } from "./lib/dynamic-client";

export default async function userInfo({ tool }: { tool: "airtable" | "notion" | "coda" }) {
  const api = { airtable, notion, coda }[tool];
  const me =
    tool === "airtable" ? await api.v0.meta.whoami.get() :
    tool === "notion" ? await api.v1.users.me.get() :
    await api.v1.whoami.get();
  return { id: me?.id ?? null, name: me?.name ?? me?.email ?? null };
}
