// The ids the client registers and the server commands it calls. The
// package.json contributions are checked against this list by a test.

import { safeString, visible } from "./render";

/** Palette commands contributed by the extension. */
export const CLIENT_COMMANDS = {
  runTool: "pluginLsp.runTool",
  showReviewCard: "pluginLsp.showReviewCard",
  restartServer: "pluginLsp.restartServer",
} as const;

/** workspace/executeCommand commands served by `plugin-lsp serve`. */
export const SERVER_COMMANDS = {
  runTool: "plugin.runTool",
  reviewCard: "plugin.reviewCard",
  runTests: "plugin.runTests",
  pin: "plugin.pin",
} as const;

/** The documents the server is told about. */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", pattern: "**/plugin.json" },
  { scheme: "file", pattern: "**/fixtures.json" },
  { scheme: "file", pattern: "**/tests/*.json" },
  { scheme: "file", language: "typescript" },
  { scheme: "file", language: "javascript" },
];

/** Files whose changes on disk the server hears about. */
export const WATCH_GLOB = "**/{plugin.json,fixtures.json,tests/*.json,*.ts,*.js,*.mjs}";

/** Escapes text for Markdown prose: HTML metacharacters and Markdown punctuation. */
function mdText(v: unknown): string {
  return visible(safeString(v ?? "").replace(/\r?\n/g, " "))
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_\[\]#|~])/g, "\\$1")
    .replace(/\r?\n/g, " ");
}

/** A code span that survives backticks inside the text. */
function mdCode(v: unknown): string {
  const t = visible(safeString(v ?? "").replace(/\r?\n/g, " "));
  const ticks = "`".repeat(Math.max(1, ...Array.from(t.matchAll(/`+/g), (m) => m[0].length + 1)));
  const pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * Turns what plugin.reviewCard returned into Markdown for a preview: the
 * card model of analysis/review (plugin, version, sourceTreeHash,
 * functionTools, nativeTools, problems) as a readable card; a string as it
 * is; anything else as JSON.
 */
export function reviewCardMarkdown(result: unknown): string {
  if (typeof result === "string") return result;
  const c = obj(result);
  if (typeof c.sourceTreeHash !== "string" && typeof c.plugin !== "string") {
    for (const key of ["markdown", "text"]) {
      if (typeof c[key] === "string") return c[key] as string;
    }
    return "```json\n" + JSON.stringify(result, null, 2) + "\n```\n";
  }
  const out: string[] = [];
  const name = typeof c.plugin === "string" && c.plugin !== "" ? c.plugin : "(unnamed plugin)";
  out.push(`# Install review: ${mdText(name)} ${mdText(c.version ?? "")}`.trimEnd(), "");
  if (typeof c.description === "string" && c.description !== "") out.push(mdText(c.description), "");
  const hash = typeof c.sourceTreeHash === "string" && c.sourceTreeHash !== "" ? mdCode(c.sourceTreeHash) : "(not computed)";
  out.push(`Source-tree hash: ${hash}`, "");
  for (const p of arr(c.problems)) out.push(`> **Warning:** ${mdText(p)}`, "");
  const fns = arr(c.functionTools);
  out.push(`## Function tools (sandboxed, ${fns.length})`, "");
  if (fns.length === 0) out.push("(none)", "");
  for (const t0 of fns) {
    const t = obj(t0);
    out.push(`### ${mdCode(t.registered ?? `fn.${t.name}`)} — ${mdCode(t.page ?? "")}`, "");
    if (typeof t.description === "string" && t.description !== "") out.push(mdText(t.description), "");
    const host = arr(t.host);
    out.push(`- host methods: ${host.length === 0 ? "none (minimal grant)" : host.map(mdCode).join(", ")}`);
    const fetch = arr(t.fetch);
    if (fetch.length === 0) out.push("- fetch: no network");
    for (const f0 of fetch) {
      const f = obj(f0);
      out.push(`- fetch: ${mdCode(`https://${f.domain}`)} (max ${mdText(f.fetchMaxBytes)} bytes, ${mdText(f.fetchTimeoutMs)} ms)`);
    }
    for (const cr0 of arr(t.credentials)) {
      const cr = obj(cr0);
      const domains = arr(cr.domains).map(mdCode).join(", ");
      out.push(`- credential: ${mdCode(cr.name)} into header ${mdCode(cr.header)}, sent to ${cr.unscoped ? "every fetch domain: " : ""}${domains}`);
    }
    out.push("");
  }
  const natives = arr(c.nativeTools);
  out.push(`## Native tools (full trust, ${natives.length})`, "");
  if (natives.length === 0) out.push("(none)", "");
  for (const n0 of natives) {
    const n = obj(n0);
    const line = typeof n.line === "string" && n.line !== "" ? n.line : `native tool ${n.name} (${n.module}) in the full-trust lane`;
    out.push(`- ${mdText(line)}`);
  }
  return out.join("\n").trimEnd() + "\n";
}
