// Helpers shared by the Node tests.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const EXT_ROOT = join(__dirname, "..", "..");
export const REPO_ROOT = join(EXT_ROOT, "..");

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(EXT_ROOT, "test", "fixtures", name), "utf8"));
}

/** Every tag name opened or closed in `html`, lower-cased, sorted, once each. */
export function tagNames(html: string): string[] {
  const names = new Set<string>();
  for (const m of html.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)) names.add(m[1].toLowerCase());
  return [...names].sort();
}

/** Every attribute name used in `html`'s tags, sorted, once each. */
export function attributeNames(html: string): string[] {
  const names = new Set<string>();
  for (const tag of html.matchAll(/<[A-Za-z][^>]*>/g)) {
    // Values are always double-quoted with `"` escaped, so consuming them
    // keeps text inside a value from looking like an attribute.
    for (const a of tag[0].matchAll(/\s([A-Za-z_:][-A-Za-z0-9_:.]*)(?:="[^"]*")?/g)) names.add(a[1].toLowerCase());
  }
  return [...names].sort();
}

/** The text a reader sees: tags dropped, entities decoded, whitespace collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<\/?(?:span|a|code|strong|em|kbd|wbr)\b[^>]*>/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Builds plugin-lsp from ../cmd/plugin-lsp into `out`, or, when
 * PLUGIN_LSP_TEST_BINARY names a binary, uses that one instead (to try a
 * server build from elsewhere).
 */
export function buildServer(out: string): string {
  const given = process.env.PLUGIN_LSP_TEST_BINARY;
  if (given) return given;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { execFileSync } = require("node:child_process") as typeof import("node:child_process");
  execFileSync("go", ["build", "-o", out, "./cmd/plugin-lsp"], { cwd: REPO_ROOT, stdio: ["ignore", "inherit", "inherit"] });
  return out;
}
