// The third-party notices: the committed files are what
// scripts/notices.mjs generates from the dependency set now (a new Go module
// or npm package cannot ship without its notice), and, checked by other
// means than the generator's, they name every module a built binary says it
// links, every npm package the client bundle's source map names, and carry
// wazero's NOTICE verbatim.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { EXT_ROOT, REPO_ROOT, buildServer } from "./util";

const committed = {
  server: readFileSync(join(REPO_ROOT, "THIRD_PARTY_NOTICES.md"), "utf8"),
  extension: readFileSync(join(EXT_ROOT, "THIRD_PARTY_NOTICES.md"), "utf8"),
};
// No test reaches the network: a module missing from the cache fails instead of downloading.
const offline = { ...process.env, GOPROXY: "off", GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=readonly`.trim() };

/** The "### name version" headings of a notices file. */
function headings(md: string): string[] {
  return [...md.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
}

describe("third-party notices", () => {
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), "plugin-lsp-notices-"));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("are what scripts/notices.mjs generates now (node scripts/notices.mjs rewrites them)", () => {
    const out = execFileSync(process.execPath, [join(EXT_ROOT, "scripts", "notices.mjs"), "--json"], {
      cwd: EXT_ROOT,
      encoding: "utf8",
      env: offline,
      maxBuffer: 64 << 20,
    });
    const generated = JSON.parse(out) as typeof committed;
    assert.equal(committed.server, generated.server, "THIRD_PARTY_NOTICES.md is stale: run node extension/scripts/notices.mjs");
    assert.equal(committed.extension, generated.extension, "extension/THIRD_PARTY_NOTICES.md is stale: run node extension/scripts/notices.mjs");
  });

  it("name every module `go version -m` finds in a built plugin-lsp", () => {
    const binary = buildServer(join(work, "plugin-lsp"));
    const info = execFileSync("go", ["version", "-m", binary], { encoding: "utf8", env: offline });
    const deps = [...info.matchAll(/^\s+dep\s+(\S+)\s+(\S+)/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.ok(deps.some((d) => d.startsWith("github.com/tetratelabs/wazero ")), "the binary links wazero");
    assert.ok(deps.length >= 10, `go version -m listed ${deps.length} modules`);
    for (const file of ["server", "extension"] as const) {
      const named = headings(committed[file]);
      for (const d of deps) assert.ok(named.includes(d), `${file} notices lack ${d}`);
      assert.ok(named.includes("Go standard library and runtime"), `${file} notices lack the Go standard library`);
    }
    // Nothing listed that the binary does not link (the standard library aside).
    assert.deepEqual(
      headings(committed.server).filter((h) => h !== "Go standard library and runtime").sort(),
      [...deps].sort(),
    );
  });

  it("name every npm package the client bundle's source map draws from", () => {
    // dist/extension.js.map comes from `node scripts/bundle.mjs` (the development bundle the tests run on).
    const map = JSON.parse(readFileSync(join(EXT_ROOT, "dist", "extension.js.map"), "utf8")) as { sources: string[] };
    const packages = new Set<string>();
    for (const s of map.sources) {
      const m = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(s.replace(/^(\.\.\/)+/, ""));
      if (!m) continue;
      const pkg = JSON.parse(readFileSync(join(EXT_ROOT, m[1], "package.json"), "utf8"));
      packages.add(`${pkg.name} ${pkg.version}`);
    }
    assert.ok(packages.has(`vscode-languageclient 9.0.1`), "the bundle holds vscode-languageclient");
    assert.ok(packages.size >= 5, `${packages.size} packages in the source map`);
    const bundled = committed.extension.slice(0, committed.extension.indexOf("\n## The plugin-lsp server"));
    assert.deepEqual(headings(bundled).sort(), [...packages].sort());
    for (const p of packages) {
      const [name] = p.split(" ");
      assert.match(bundled, new RegExp(`^### ${name.replace(/[.]/g, "\\.")} [^\\n]*\\n\\n[^\\n]+\\n\\n\\S+:\\n\\n\`\`\`+text\\n`, "m"), `${p} has a license text`);
    }
  });

  it("carry wazero's Apache-2.0 NOTICE file verbatim, with its LICENSE", () => {
    const dir = execFileSync("go", ["list", "-m", "-f", "{{.Dir}}", "github.com/tetratelabs/wazero"], { cwd: REPO_ROOT, encoding: "utf8", env: offline }).trim();
    const notice = readFileSync(join(dir, "NOTICE"), "utf8");
    const license = readFileSync(join(dir, "LICENSE"), "utf8");
    assert.match(license, /Apache License\s+Version 2\.0/);
    for (const file of ["server", "extension"] as const) {
      assert.ok(committed[file].includes("NOTICE:\n\n```text\n" + notice.replace(/\n*$/, "\n") + "```\n"), `${file} notices carry wazero's NOTICE`);
      assert.ok(committed[file].includes(license.replace(/\r\n/g, "\n").replace(/\n*$/, "\n")), `${file} notices carry wazero's LICENSE`);
    }
  });
});
