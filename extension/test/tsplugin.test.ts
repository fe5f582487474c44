// The extension configures the TypeScript server plugin it contributes.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as vscode from "vscode";
import { TSSERVER_PLUGIN, TS_EXTENSION, configureTsserverPlugin } from "../src/tsplugin";
import { EXT_ROOT } from "./util";

function extensions(ts: { isActive: boolean; exports?: unknown; activate?: () => Promise<unknown> } | undefined, asked: string[]) {
  return {
    getExtension: (id: string) => {
      asked.push(id);
      return ts;
    },
  } as unknown as typeof vscode.extensions;
}

describe("configureTsserverPlugin", () => {
  const config = { command: "/opt/plugin-lsp", args: [], cacheDir: "/home/a/.storage/tsserver-types" };
  it("sends the binary and the cache folder to the contributed plugin, activating the TypeScript extension when needed", async () => {
    const sent: unknown[][] = [];
    const api = { configurePlugin: (...a: unknown[]) => sent.push(a) };
    let activated = 0;
    const asked: string[] = [];
    const ok = await configureTsserverPlugin(extensions({ isActive: false, activate: async () => (activated++, { getAPI: (v: number) => (v === 0 ? api : undefined) }) }, asked), config);
    assert.equal(ok, true);
    assert.deepEqual(asked, [TS_EXTENSION]);
    assert.equal(activated, 1);
    assert.deepEqual(sent, [[TSSERVER_PLUGIN, config]]);
    const pkg = JSON.parse(readFileSync(join(EXT_ROOT, "package.json"), "utf8"));
    assert.equal(pkg.contributes.typescriptServerPlugins[0].name, TSSERVER_PLUGIN, "the name package.json contributes");
  });
  it("does nothing without the TypeScript extension or its API", async () => {
    assert.equal(await configureTsserverPlugin(extensions(undefined, []), config), false);
    assert.equal(await configureTsserverPlugin(extensions({ isActive: true, exports: {} }, []), config), false);
  });
});
