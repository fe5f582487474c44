// The settings reference (docs/extension.md, between the settings markers)
// is what scripts/settings.mjs generates from package.json now, and the
// check fails on a stale copy: a setting added, renamed or re-described in
// package.json cannot ship with the old reference.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EXT_ROOT, REPO_ROOT } from "./util";

const script = join(EXT_ROOT, "scripts", "settings.mjs");
const doc = join(REPO_ROOT, "docs", "extension.md");
const pkg = JSON.parse(readFileSync(join(EXT_ROOT, "package.json"), "utf8"));

function check(path: string) {
  return spawnSync(process.execPath, [script, "--check", path], { encoding: "utf8" });
}

describe("settings reference", () => {
  const work = mkdtempSync(join(tmpdir(), "plugin-lsp-settings-"));
  after(() => rmSync(work, { recursive: true, force: true }));

  it("is what scripts/settings.mjs generates from package.json (node scripts/settings.mjs rewrites it)", () => {
    const r = check(doc);
    assert.equal(r.status, 0, r.stderr);
  });

  it("names every setting of package.json, with its default, once", () => {
    const text = readFileSync(doc, "utf8");
    for (const [name, p] of Object.entries<{ default?: unknown }>(pkg.contributes.configuration.properties)) {
      const rows = text.split("\n").filter((l) => l.startsWith("| `" + name + "` |"));
      assert.equal(rows.length, 1, `${name}: one row`);
      assert.ok(rows[0].includes("`" + JSON.stringify(p.default) + "`"), `${name}: default ${JSON.stringify(p.default)} in ${rows[0]}`);
    }
  });

  it("fails the check on a stale copy and on a copy without markers, and the generator repairs the stale one", () => {
    const text = readFileSync(doc, "utf8");
    const stale = join(work, "stale.md");
    writeFileSync(stale, text.replace("| `pluginLsp.timeout` | string | `\"30s\"` |", "| `pluginLsp.timeout` | string | `\"10s\"` |"));
    assert.notEqual(readFileSync(stale, "utf8"), text, "the control: the copy was changed");
    const r = check(stale);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /stale/);
    execFileSync(process.execPath, [script, stale]);
    assert.equal(readFileSync(stale, "utf8"), text);
    const bare = join(work, "bare.md");
    writeFileSync(bare, "# no markers\n");
    assert.notEqual(check(bare).status, 0);
  });
});
