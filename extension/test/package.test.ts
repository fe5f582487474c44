// The package.json contributions agree with the code and the .vsix layout.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CLIENT_COMMANDS } from "../src/commands";
import { DEFAULT_SETTINGS } from "../src/launch";
import { EXT_ROOT, REPO_ROOT } from "./util";

const pkg = JSON.parse(readFileSync(join(EXT_ROOT, "package.json"), "utf8"));
const source = readFileSync(join(EXT_ROOT, "src", "extension.ts"), "utf8");

describe("package.json", () => {
  it("contributes exactly the palette commands the client registers", () => {
    const contributed = pkg.contributes.commands.map((c: { command: string; title: string; category: string }) => `${c.category}: ${c.title} = ${c.command}`);
    assert.deepEqual(contributed, [
      "Plugin: Run Tool… = pluginLsp.runTool",
      "Plugin: Show Review Card = pluginLsp.showReviewCard",
      "Plugin: Pin Capability Snapshot = pluginLsp.pinSnapshot",
      "Plugin: Restart Server = pluginLsp.restartServer",
    ]);
    assert.deepEqual(Object.values(CLIENT_COMMANDS).sort(), pkg.contributes.commands.map((c: { command: string }) => c.command).sort());
    for (const key of Object.keys(CLIENT_COMMANDS)) {
      assert.ok(source.includes(`registerCommand(CLIENT_COMMANDS.${key},`), `extension.ts registers ${key}`);
    }
  });
  it("has a setting for every client setting, with the same defaults", () => {
    const props = pkg.contributes.configuration.properties;
    assert.deepEqual(Object.keys(props).sort(), Object.keys(DEFAULT_SETTINGS).map((k) => `pluginLsp.${k}`).sort());
    for (const [k, v] of Object.entries(DEFAULT_SETTINGS)) assert.deepEqual(props[`pluginLsp.${k}`].default, v, k);
    assert.deepEqual(props["pluginLsp.providers"].enum, ["fake", "real"]);
    const timeout = new RegExp(props["pluginLsp.timeout"].pattern);
    for (const ok of ["30s", "500ms", "1m", "1.5s", "1m30s", "2h"]) assert.ok(timeout.test(ok), ok);
    for (const bad of ["30", "s", "1h30", "10 s", "-1s"]) assert.ok(!timeout.test(bad), bad);
  });
  it("gives VS Code's JSON service the manifest schema without its validation keywords", () => {
    assert.deepEqual(pkg.contributes.jsonValidation, [{ fileMatch: "plugin.json", url: "./schemas/plugin.hints.schema.json" }]);
    const copy = readFileSync(join(EXT_ROOT, "scripts", "copy-schema.mjs"), "utf8");
    assert.ok(copy.includes(`join(root, "..", "internal", "checker", "schema", "plugin.schema.json")`));
    const hintsPath = join(EXT_ROOT, "schemas", "plugin.hints.schema.json");
    if (!existsSync(hintsPath)) return assert.fail(`${hintsPath} not built (npm run schema)`);
    const source = JSON.parse(readFileSync(join(EXT_ROOT, "..", "internal", "checker", "schema", "plugin.schema.json"), "utf8"));
    const hints = JSON.parse(readFileSync(hintsPath, "utf8"));
    const src = schemaFacts(source);
    const got = schemaFacts(hints);
    // plugin-lsp reports schema problems; the JSON service must have nothing left to fail on.
    assert.deepEqual(got.validating, [], "validation keywords left in the hints schema");
    assert.ok(src.validating.length > 10, "the source schema validates (the check above can fail)");
    // ...and must still complete and describe every property the manifest schema knows.
    assert.deepEqual(got.properties, src.properties);
    assert.deepEqual(got.descriptions, src.descriptions);
    assert.deepEqual(got.values, src.values, "enum/const values are offered as examples");
  });
  it("contributes the TypeScript server plugin, installed where VS Code resolves it, as in tsserver-plugin/", () => {
    assert.deepEqual(pkg.contributes.typescriptServerPlugins, [{ name: "plugin-lsp-tsserver", enableForWorkspaceTypeScriptVersions: true }]);
    assert.equal(pkg.dependencies["plugin-lsp-tsserver"], "file:tsserver-plugin");
    assert.match(readFileSync(join(EXT_ROOT, ".npmrc"), "utf8"), /^install-links=true$/m, "npm copies it into node_modules (a link would not be packed)");
    const own = JSON.parse(readFileSync(join(EXT_ROOT, "tsserver-plugin", "package.json"), "utf8"));
    assert.equal(own.name, "plugin-lsp-tsserver");
    for (const f of ["package.json", "index.js"]) {
      const installed = join(EXT_ROOT, "node_modules", "plugin-lsp-tsserver", f);
      assert.ok(!lstatSync(join(EXT_ROOT, "node_modules", "plugin-lsp-tsserver")).isSymbolicLink(), "a copy, not a link");
      assert.equal(readFileSync(installed, "utf8"), readFileSync(join(EXT_ROOT, "tsserver-plugin", f), "utf8"), `${installed} is stale: npm install (scripts/package.mjs refreshes it too)`);
    }
  });
  it("activates on plugin.json and on workspaces holding one", () => {
    assert.deepEqual(pkg.activationEvents, ["workspaceContains:**/plugin.json", "onLanguage:json"]);
    assert.equal(pkg.main, "./dist/extension.js");
  });
  it("targets the VS Code that vscode-languageclient 9 and @types/vscode need", () => {
    assert.equal(pkg.engines.vscode, "^1.82.0");
    assert.equal(pkg.dependencies["vscode-languageclient"], "9.0.1");
    assert.equal(pkg.devDependencies["@types/vscode"], "1.82.0");
  });
  it("ships the bundled client, the webview script, the schema and one server per platform", () => {
    const ignore = readFileSync(join(EXT_ROOT, ".vscodeignore"), "utf8").split("\n").filter((l) => l.startsWith("!"));
    for (const f of ["dist/extension.js", "dist/webview.js", "schemas/plugin.hints.schema.json", "bin/*/plugin-lsp", "package.json", "README.md"]) {
      assert.ok(ignore.includes(`!${f}`), f);
    }
    assert.ok(ignore.includes("!bin/*/plugin-lsp.exe"), "the Windows server too");
    assert.match(pkg.scripts.package, /node scripts\/package\.mjs$/);
    const packager = readFileSync(join(EXT_ROOT, "scripts", "build-server.mjs"), "utf8");
    for (const t of ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"]) assert.ok(packager.includes(`"${t}":`), t);
  });
});

/** What a .vsix may hold, by path inside the extension: everything else of the tree stays out. */
const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
const SHIPPED_ALWAYS = ["package.json", "README.md", "CHANGELOG.md", "LICENSE", "THIRD_PARTY_NOTICES.md", "icon.png"];
/** The TypeScript server plugin: a production dependency (tsserver-plugin/, copied into node_modules by npm's install-links), the only package vsce may pack. */
const SHIPPED_TSSERVER = ["node_modules/plugin-lsp-tsserver/package.json", "node_modules/plugin-lsp-tsserver/index.js"];
const SHIPPED_BUILT = ["dist/extension.js", "dist/webview.js", "schemas/plugin.hints.schema.json", ...TARGETS.map((t) => `bin/${t}/${t.startsWith("win32") ? "plugin-lsp.exe" : "plugin-lsp"}`)];

/** The repository's web address, from package.json (vsce takes the README's base URLs from it too). */
const REPO_URL = pkg.repository.url.replace(/\.git$/, "");

describe("release hygiene", () => {
  it("ships an MIT LICENSE, in the extension the same as at the root, and packages without --skip-license", () => {
    const license = readFileSync(join(EXT_ROOT, "LICENSE"), "utf8");
    assert.equal(license, readFileSync(join(REPO_ROOT, "LICENSE"), "utf8"));
    assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 The plugin-lsp authors\n/);
    assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS"/);
    assert.equal(pkg.license, "MIT");
    const packager = readFileSync(join(EXT_ROOT, "scripts", "package.mjs"), "utf8");
    assert.doesNotMatch(packager, /--skip-license/);
    assert.doesNotMatch(packager, /--allow-missing-repository/, "package.json names the repository");
    assert.match(REPO_URL, /^https:\/\/github\.com\/[^/]+\/[^/]+$/);
  });

  it("has a 128x128 PNG icon, a changelog for this version and the notices", () => {
    assert.equal(pkg.icon, "icon.png");
    const png = readFileSync(join(EXT_ROOT, pkg.icon));
    assert.equal(png.toString("latin1", 0, 8), "\x89PNG\r\n\x1a\n", "PNG signature");
    assert.equal(png.toString("latin1", 12, 16), "IHDR");
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], "width x height");
    for (const changelog of [join(EXT_ROOT, "CHANGELOG.md"), join(REPO_ROOT, "CHANGELOG.md")]) {
      assert.match(readFileSync(changelog, "utf8"), new RegExp(`^## ${pkg.version.replace(/\./g, "\\.")} `, "m"), `${changelog} has ${pkg.version}`);
    }
    assert.match(readFileSync(join(EXT_ROOT, "THIRD_PARTY_NOTICES.md"), "utf8"), /^# Third-party notices/);
  });

  it("vsce ls lists only what should ship", () => {
    // The checkout holds what must stay out (the tests run from out/, the
    // development bundle leaves a source map in dist/): the control.
    for (const stray of ["src/extension.ts", "test/package.test.ts", "out/test/package.test.js", "e2e", "node_modules", "dist/extension.js.map", "tsconfig.json", "scripts/package.mjs"]) {
      assert.ok(existsSync(join(EXT_ROOT, stray)), `${stray} is in the checkout`);
    }
    const vsce = join(EXT_ROOT, "node_modules", "@vscode", "vsce", "vsce");
    // As scripts/package.mjs packs: with the production dependencies, so that the
    // TypeScript server plugin is in; .vscodeignore keeps every other package out.
    assert.doesNotMatch(readFileSync(join(EXT_ROOT, "scripts", "package.mjs"), "utf8"), /"--no-dependencies"/);
    const listed = execFileSync(process.execPath, [vsce, "ls"], { cwd: EXT_ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
    const stray = listed.filter((f) => !SHIPPED_ALWAYS.includes(f) && !SHIPPED_BUILT.includes(f) && !SHIPPED_TSSERVER.includes(f));
    assert.deepEqual(stray, [], "listed by vsce ls but not on the allow-list");
    for (const f of [...SHIPPED_ALWAYS, ...SHIPPED_TSSERVER]) assert.ok(listed.includes(f), `vsce ls lists ${f}`);
    assert.ok(existsSync(join(EXT_ROOT, "node_modules", "jsonc-parser")), "the control: other production dependencies are installed, and not listed");
    for (const f of SHIPPED_BUILT) assert.equal(listed.includes(f), existsSync(join(EXT_ROOT, f)), `vsce ls lists ${f} exactly when it is built`);
  });

  it("has a README that renders standalone: https images in the repository, links to what ships", () => {
    const readme = readFileSync(join(EXT_ROOT, "README.md"), "utf8");
    // vsce rewrites relative targets onto --baseContentUrl/--baseImagesUrl (the
    // extension folder) without resolving "..": a link out of the folder must be absolute.
    const links = [...readme.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({ image: m[1] === "!", target: m[2] }));
    assert.ok(links.some((l) => l.image), "the README shows a screenshot");
    for (const { image, target } of links) {
      if (/^\w+:/.test(target)) {
        const u = new URL(target);
        assert.equal(u.protocol, "https:", target);
        if (!target.startsWith(REPO_URL + "/")) {
          assert.ok(!image, `image ${target} is not in the repository`);
          continue;
        }
        const m = /^\/[^/]+\/[^/]+\/(?:raw|blob)\/HEAD\/(.+)$/.exec(u.pathname);
        assert.ok(m, `${target}: ${REPO_URL}/raw/HEAD/<path> or /blob/HEAD/<path>`);
        assert.ok(existsSync(join(REPO_ROOT, m[1])), `${target} names ${m[1]}, which the repository lacks`);
        if (image) assert.match(m[1], /\.(png|jpe?g|gif)$/, `${target}: vsce refuses SVG images`);
      } else if (!target.startsWith("#")) {
        assert.ok(!image, `image ${target} must be an absolute https URL`);
        assert.ok(SHIPPED_ALWAYS.includes(target), `${target}: a relative link must name a file the .vsix ships`);
      }
    }
  });
});

const VALIDATING = new Set(["type", "required", "additionalProperties", "pattern", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "uniqueItems", "format", "enum", "const", "if", "then", "else", "not", "dependentRequired", "propertyNames", "errorMessage"]);

/** What a schema completes (property names, descriptions, allowed values) and which validation keywords it holds. */
function schemaFacts(schema: unknown) {
  const properties = new Set<string>();
  const descriptions = new Set<string>();
  const values = new Set<string>();
  const validating: string[] = [];
  const walk = (x: unknown, path: string, inProps: boolean) => {
    if (Array.isArray(x)) return x.forEach((v, i) => walk(v, `${path}/${i}`, false));
    if (!x || typeof x !== "object") return;
    for (const [k, v] of Object.entries(x)) {
      if (inProps) {
        properties.add(k);
        walk(v, `${path}/${k}`, false);
        continue;
      }
      if (k === "description" && typeof v === "string") descriptions.add(v);
      if (k === "enum" || k === "examples") for (const e of v as unknown[]) if (typeof e !== "object") values.add(JSON.stringify(e));
      if (k === "const") values.add(JSON.stringify(v));
      if (VALIDATING.has(k) && !(k === "additionalProperties" && typeof v === "object")) validating.push(`${path}/${k}`);
      if (k === "examples" || k === "default" || k === "defaultSnippets") continue;
      walk(v, `${path}/${k}`, k === "properties" || k === "$defs" || k === "patternProperties");
    }
  };
  walk(schema, "", false);
  const sorted = (s: Set<string>) => [...s].sort();
  return { properties: sorted(properties), descriptions: sorted(descriptions), values: sorted(values), validating };
}
