// Writes schemas/plugin.hints.schema.json for contributes.jsonValidation from
// the manifest JSON Schema of the Go tree (the single source,
// internal/checker/schema/plugin.schema.json).
//
// Who reports what on plugin.json in VS Code: plugin-lsp owns every schema
// problem (with its codes, did-you-mean and quick fixes, the same as
// `plugin-lsp check` and every other editor); VS Code's JSON service keeps
// what only it does well: syntax errors, and completion and hover from the
// schema's descriptions (each also as `markdownDescription`, escaped so
// that VS Code's Markdown hover loses none of its words). So the schema VS Code sees is the manifest schema
// with its validation keywords taken out: property names, descriptions,
// defaults and allowed values (as `examples`, which complete but never
// fail) stay; `type` becomes a default snippet, so a completed key still
// gets `{}`, `[]` or `""`. A JSON service holding the full schema would
// report each schema problem a second time.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "..", "internal", "checker", "schema", "plugin.schema.json");
const dst = join(root, "schemas", "plugin.hints.schema.json");

/** Keywords that only complete or describe, kept as they are. */
const KEEP = new Set(["$schema", "$ref", "$comment", "title", "description", "markdownDescription", "default", "examples", "deprecationMessage"]);
/** Keywords holding one subschema, or a map of them. */
const SUB = new Set(["items", "additionalProperties"]);
const SUBMAP = new Set(["properties", "$defs", "definitions", "patternProperties"]);
/** Keywords holding a list of subschemas whose properties complete. */
const SUBLIST = new Set(["anyOf", "oneOf", "allOf"]);
const SNIPPET = { object: {}, array: [], string: "", integer: 0, number: 0, boolean: false };

/**
 * A plain-text description as Markdown that reads back as the same words.
 * VS Code's JSON hover shows `markdownDescription` when there is one, and
 * otherwise escapes only some of `description`'s marks: "fn.<name>" then
 * loses "<name>", read as an HTML tag and dropped. Every ASCII punctuation
 * mark is backslash-escaped (CommonMark allows it of any of them), so none
 * starts a tag, an entity, emphasis or a link.
 */
export function markdownOf(text) {
  return text.replace(/[!-\/:-@[-`{-~]/g, (c) => "\\" + c).replace(/\n/g, "  \n");
}

export function hints(schema) {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return {};
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (KEEP.has(k)) {
      out[k] = v;
      if (k === "description" && typeof v === "string" && typeof schema.markdownDescription !== "string") out.markdownDescription = markdownOf(v);
    } else if (SUB.has(k)) {
      if (typeof v === "object" && v !== null) out[k] = hints(v);
    } else if (SUBMAP.has(k)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, hints(s)]));
    } else if (SUBLIST.has(k)) {
      out[k] = v.map(hints);
    } else if (k === "then") {
      // if/then/else only validates; what `then` describes still completes.
      const t = hints(v);
      if (t.properties) out.properties = { ...(out.properties ?? {}), ...t.properties };
    } else if (k === "enum" || k === "const") {
      const values = k === "enum" ? v : [v];
      out.examples = [...(schema.examples ?? []), ...values];
    } else if (k === "type" && typeof v === "string" && v in SNIPPET && !schema.default && !schema.defaultSnippets) {
      out.defaultSnippets = [{ body: SNIPPET[v] }];
    }
    // Everything else (type, required, additionalProperties: false, pattern,
    // minLength, minItems, format, errorMessage, if, else, not, …) validates: dropped.
  }
  if (out.properties && out.then) delete out.then;
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(src)) {
    console.error(`copy-schema: ${src} does not exist; the manifest schema is built in internal/checker/schema`);
    process.exit(1);
  }
  const schema = JSON.parse(readFileSync(src, "utf8")); // fail here, not in VS Code, on a broken schema
  mkdirSync(dirname(dst), { recursive: true });
  rmSync(join(root, "schemas", "plugin.schema.json"), { force: true });
  const out = hints(schema);
  delete out.defaultSnippets; // the root is the file itself
  writeFileSync(dst, JSON.stringify(out, null, 2) + "\n");
  console.log(`copy-schema: ${src} -> ${dst} (validation keywords removed)`);
}
