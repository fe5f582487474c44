import fs, { readFile as rf } from "node:fs/promises";
import * as path from "node:path";
export { join } from "node:path";
export * from "./other.mjs";
export * as ns from "./ns.mjs";
const meta = import.meta.url;
export const tools = { read: { description: "Read", run: async ({ p }) => rf(path.join(meta, p), "utf8") } };
export default tools;
