import { registry } from "./lib/adapters";

export default async function dealStages() {
  const out: Record<string, string[] | string> = {};
  for (const [name, make] of registry) {
    try {
      out[name] = await make().stages();
    } catch (e) {
      out[name] = String(e);
    }
  }
  return out;
}
