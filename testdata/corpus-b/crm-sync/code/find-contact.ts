import { adapter } from "./lib/adapters";

export default async function findContact(input: { provider: "hubspot" | "pipedrive" | "close"; email: string }) {
  const contact = await adapter(input.provider).findByEmail(input.email);
  return contact ? { found: true, id: contact.id } : { found: false };
}
