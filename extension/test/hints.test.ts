// Every description VS Code's JSON service can show from the hints schema
// (hover and completion on plugin.json) reads back without a word lost.
// VS Code renders the hover as Markdown with HTML let through its
// sanitizer, which drops tags it does not know: "fn.<name>" became "fn."
// and "PLUGIN_SECRET_<PLUGIN>__<name>" "PLUGIN_SECRET___". The check
// renders each hint's Markdown the way the hover does (markdown-it with
// HTML on, then every tag dropped, as an unknown one is) and compares the
// text with the schema's description.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import MarkdownIt from "markdown-it";
import { EXT_ROOT, REPO_ROOT } from "./util";

const md = new MarkdownIt({ html: true, linkify: false });

/** The text a reader sees in the rendered hover: tags dropped, entities decoded, whitespace collapsed. */
function shown(markdown: string): string {
  return md
    .render(markdown)
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** What VS Code's JSON hover does to a plain `description` (vscode-json-languageservice, toMarkdown). */
function jsonServiceMarkdown(plain: string): string {
  return plain.replace(/([\\`*_{}[\]()#+\-.!])/g, "\\$1").replace(/(^ +)/gm, (s) => "&nbsp;".repeat(s.length)).replace(/\n/g, "  \n");
}

interface Described {
  path: string;
  description: string;
  markdownDescription?: unknown;
}

function described(schema: unknown, path = ""): Described[] {
  if (Array.isArray(schema)) return schema.flatMap((v, i) => described(v, `${path}/${i}`));
  if (!schema || typeof schema !== "object") return [];
  const o = schema as Record<string, unknown>;
  const here: Described[] = typeof o.description === "string" ? [{ path, description: o.description, markdownDescription: o.markdownDescription }] : [];
  return here.concat(Object.entries(o).flatMap(([k, v]) => (k === "examples" || k === "default" ? [] : described(v, `${path}/${k}`))));
}

describe("hints schema descriptions", () => {
  const source = JSON.parse(readFileSync(join(REPO_ROOT, "internal", "checker", "schema", "plugin.schema.json"), "utf8"));
  // A real ESM import (tsc would turn `import()` into `require`, which cannot load an .mjs here).
  const esmImport = new Function("u", "return import(u)") as (u: string) => Promise<unknown>;
  const load = async () => (await esmImport(pathToFileURL(join(EXT_ROOT, "scripts", "copy-schema.mjs")).href)) as { hints: (s: unknown) => unknown };

  it("reads back every word of every description in the hover", async () => {
    const hints = described((await load()).hints(source));
    assert.equal(hints.length, described(source).length, "every description of the manifest schema is in the hints");
    assert.ok(hints.length > 20, `${hints.length} descriptions`);
    for (const h of hints) {
      assert.equal(typeof h.markdownDescription, "string", `${h.path}: no markdownDescription`);
      assert.equal(shown(h.markdownDescription as string), h.description.replace(/\s+/g, " ").trim(), h.path);
    }
  });

  it("would lose words without markdownDescription (the check above can fail)", () => {
    const lost = described(source).filter((d) => shown(jsonServiceMarkdown(d.description)) !== d.description.replace(/\s+/g, " ").trim());
    assert.ok(lost.some((d) => d.description.includes("fn.<name>")), lost.map((d) => d.path).join("\n"));
    assert.ok(lost.some((d) => d.description.includes("PLUGIN_SECRET_<PLUGIN>")), lost.map((d) => d.path).join("\n"));
  });
});
