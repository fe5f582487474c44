// prefill builds the input box's first text from a tool's inputJsonSchema,
// parses what the author typed, and lists a manifest's tools. Pure: no
// vscode import, so Node tests cover it.

import { parse as parseJson, ParseErrorCode, type ParseError } from "jsonc-parser";

export interface ToolInfo {
  name: string;
  description: string;
  inputJsonSchema: unknown;
}

const MAX_DEPTH = 8;

/**
 * A sample value for a JSON Schema: default, const, examples[0] or enum[0]
 * when given; otherwise a placeholder of the right type. Objects get their
 * required properties (all properties when none is required) plus the
 * optional ones that carry a default or an example.
 */
export function sampleFromSchema(schema: unknown): unknown {
  return sample(schema, { root: schema, budget: MAX_NODES }, 0);
}

// A hostile schema ($refs to the root inside wide allOf/properties) could
// otherwise fan out exponentially: every visited subschema costs one unit.
const MAX_NODES = 10_000;

interface Walk {
  root: unknown;
  budget: number;
}

function sample(schema: unknown, w: Walk, depth: number): unknown {
  if (depth > MAX_DEPTH || !isObject(schema) || --w.budget < 0) return depth === 0 ? {} : null;
  const s = schema as Record<string, unknown>;
  if ("default" in s) return s.default;
  if ("const" in s) return s.const;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (typeof s.$ref === "string") {
    const target = resolveRef(w.root, s.$ref);
    return target === undefined ? null : sample(target, w, depth + 1);
  }
  for (const key of ["oneOf", "anyOf"]) {
    const alts = s[key];
    if (Array.isArray(alts) && alts.length > 0) {
      const nonNull = alts.find((a) => !(isObject(a) && (a as Record<string, unknown>).type === "null")) ?? alts[0];
      return sample(nonNull, w, depth + 1);
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    // Merge the object parts; otherwise the first part decides.
    const merged: Record<string, unknown> = {};
    let allObjects = true;
    for (const part of s.allOf) {
      const v = sample(part, w, depth + 1);
      if (isObject(v)) Object.assign(merged, v);
      else allObjects = false;
    }
    return allObjects ? merged : sample(s.allOf[0], w, depth + 1);
  }
  let type = s.type;
  if (Array.isArray(type)) type = type.find((t) => t !== "null") ?? type[0];
  if (type === undefined) {
    if (isObject(s.properties)) type = "object";
    else if (s.items !== undefined) type = "array";
  }
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const props = isObject(s.properties) ? (s.properties as Record<string, unknown>) : {};
      const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [];
      const names = Object.keys(props);
      for (const name of names) {
        const p = props[name];
        const hinted = isObject(p) && ("default" in p || "examples" in p || "const" in p);
        if (required.length === 0 || required.includes(name) || hinted) {
          out[name] = sample(p, w, depth + 1);
        }
      }
      // A required name without a property schema still gets a slot.
      for (const name of required) {
        if (!(name in out)) out[name] = null;
      }
      return out;
    }
    case "array": {
      const min = typeof s.minItems === "number" ? Math.min(s.minItems, 3) : 0;
      const item = Array.isArray(s.prefixItems) ? s.prefixItems[0] : s.items;
      const out: unknown[] = [];
      for (let i = 0; i < min; i++) out.push(sample(item, w, depth + 1));
      return out;
    }
    case "string":
      return "";
    case "integer":
    case "number":
      if (typeof s.minimum === "number") return s.minimum;
      if (typeof s.exclusiveMinimum === "number") return type === "integer" ? Math.floor(s.exclusiveMinimum) + 1 : s.exclusiveMinimum + 1;
      return 0;
    case "boolean":
      return false;
    case "null":
      return null;
  }
  return depth === 0 ? {} : null;
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined; // no remote schemas
  const pointer = ref.slice(1);
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return undefined;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The input box's text: what the author last ran for this tool, else the schema's sample. */
export function prefillInput(schema: unknown, remembered?: string): string {
  if (typeof remembered === "string" && remembered.trim() !== "") return remembered;
  return JSON.stringify(sampleFromSchema(schema), null, 2) ?? "{}";
}

/** The key under which a tool's last input is remembered. */
export function rememberKey(pluginDir: string, tool: string): string {
  return `pluginLsp.input:${pluginDir}#${tool}`;
}

export type ParsedInput = { ok: true; value: unknown } | { ok: false; message: string; line: number; column: number };

/** Parses the input box. Empty text means "no input" (the tool gets null). */
export function parseInput(text: string): ParsedInput {
  if (text.trim() === "") return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const offset = jsonErrorOffset(text);
    const before = text.slice(0, offset).split("\n");
    const line = before.length;
    const column = before[before.length - 1].length + 1;
    return { ok: false, message: `Input is not JSON (line ${line}, column ${column}): ${msg.split("\n")[0]}`, line, column };
  }
}

/**
 * The offset of the first syntax error in `text` (text.length when the
 * input ends too early), from jsonc-parser in strict JSON mode (no
 * comments, no trailing commas): Node's JSON.parse does not always say
 * where. A string that is never closed is reported where the input ends.
 */
export function jsonErrorOffset(text: string): number {
  const errors: ParseError[] = [];
  try {
    parseJson(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    // Nesting too deep for jsonc-parser's recursive descent: no hand-typed
    // input gets there, and such input breaks at its end (it never closes).
    return text.length;
  }
  const first = errors[0];
  if (!first) return text.length;
  const at = first.error === ParseErrorCode.UnexpectedEndOfString ? first.offset + first.length : first.offset;
  return Math.min(at, text.length);
}

/**
 * The function tools of a manifest, for the Run Tool picker. A manifest
 * that does not parse yields an error message instead (the server reports
 * it as manifest-syntax with a position).
 */
export function listTools(manifestText: string): { tools: ToolInfo[]; error?: string } {
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch (e) {
    return { tools: [], error: `plugin.json does not parse: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isObject(manifest)) return { tools: [], error: "plugin.json is not a JSON object" };
  const raw = (manifest as Record<string, unknown>).tools;
  if (!Array.isArray(raw)) return { tools: [] };
  const tools: ToolInfo[] = [];
  for (const t of raw) {
    if (!isObject(t)) continue;
    const o = t as Record<string, unknown>;
    if (typeof o.name !== "string" || o.name === "") continue;
    tools.push({
      name: o.name,
      description: typeof o.description === "string" ? o.description : "",
      inputJsonSchema: o.inputJsonSchema,
    });
  }
  return { tools };
}

function isObject(v: unknown): v is object {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The plugin-relative slash path a run reported (an error's file, a stack
 * frame), checked to stay inside the plugin directory: undefined for "..",
 * absolute paths and empty names. Runs are untrusted; the panel opens only
 * the plugin's own files.
 */
export function insidePlugin(rel: string): string[] | undefined {
  if (rel === "" || rel.startsWith("/") || rel.includes("\\") || /^[A-Za-z]:/.test(rel)) return undefined;
  const parts: string[] = [];
  for (const p of rel.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") return undefined;
    parts.push(p);
  }
  return parts.length > 0 ? parts : undefined;
}
