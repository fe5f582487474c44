// The package.json contributions agree with the code and the .vsix layout.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CLIENT_COMMANDS } from "../src/commands";
import { DEFAULT_SETTINGS } from "../src/launch";
import { EXT_ROOT } from "./util";

const pkg = JSON.parse(readFileSync(join(EXT_ROOT, "package.json"), "utf8"));
const source = readFileSync(join(EXT_ROOT, "src", "extension.ts"), "utf8");

describe("package.json", () => {
  it("contributes exactly the palette commands the client registers", () => {
    const contributed = pkg.contributes.commands.map((c: { command: string; title: string; category: string }) => `${c.category}: ${c.title} = ${c.command}`);
    assert.deepEqual(contributed, [
      "Plugin: Run Tool… = pluginLsp.runTool",
      "Plugin: Show Review Card = pluginLsp.showReviewCard",
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
  it("validates plugin.json with the copied manifest schema", () => {
    assert.deepEqual(pkg.contributes.jsonValidation, [{ fileMatch: "plugin.json", url: "./schemas/plugin.schema.json" }]);
    const copy = readFileSync(join(EXT_ROOT, "scripts", "copy-schema.mjs"), "utf8");
    assert.ok(copy.includes(`join(root, "..", "analysis", "schema", "plugin.schema.json")`));
    assert.ok(copy.includes(`join(root, "schemas", "plugin.schema.json")`));
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
  it("ships the bundled client, the webview script, the schema and the linux-x64 server", () => {
    const ignore = readFileSync(join(EXT_ROOT, ".vscodeignore"), "utf8").split("\n").filter((l) => l.startsWith("!"));
    for (const f of ["dist/extension.js", "dist/webview.js", "schemas/plugin.schema.json", "bin/linux-x64/plugin-lsp", "package.json", "README.md"]) {
      assert.ok(ignore.includes(`!${f}`), f);
    }
    assert.match(pkg.scripts.package, /vsce package --no-dependencies .* -o plugin-lsp-\d+\.\d+\.\d+\.vsix$/);
    assert.ok(pkg.scripts.package.includes(`plugin-lsp-${pkg.version}.vsix`));
  });
});
