// Copies the manifest JSON Schema from the Go tree (the single source,
// analysis/schema/plugin.schema.json) into schemas/ for contributes.jsonValidation.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "..", "analysis", "schema", "plugin.schema.json");
const dst = join(root, "schemas", "plugin.schema.json");

if (!existsSync(src)) {
  console.error(`copy-schema: ${src} does not exist; the manifest schema is built in analysis/schema`);
  process.exit(1);
}
JSON.parse(readFileSync(src, "utf8")); // fail here, not in VS Code, on a broken schema
mkdirSync(dirname(dst), { recursive: true });
copyFileSync(src, dst);
console.log(`copy-schema: ${src} -> ${dst}`);
