// The bundled client with no server binary: it says what to do, keeps its
// commands working, and a run reports the missing server in the panel.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CLIENT_COMMANDS } from "../src/commands";
import { createFakeVscode, fakeDocument, Uri } from "./fakevscode";
import { EXT_ROOT, REPO_ROOT, visibleText } from "./util";

describe("the bundled client without a server binary", () => {
  let work: string;
  let fake: ReturnType<typeof createFakeVscode>;
  let ext: { activate(c: unknown): Promise<void>; deactivate(): Promise<void> };
  const state = new Map<string, unknown>();

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "plugin-lsp-nobin-"));
    const plugin = join(work, "books");
    cpSync(join(REPO_ROOT, "testdata", "example", "books"), plugin, { recursive: true });
    const manifest = join(plugin, "plugin.json");
    fake = createFakeVscode({
      workspaceFolder: work,
      settings: { serverPath: join(work, "missing", "plugin-lsp") },
      files: [manifest],
      documents: [fakeDocument(Uri.file(manifest), "json", readFileSync(manifest, "utf8"))],
      quickPick: (items) => items.find((i) => i.label === "lookupBook"),
    });
    const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
    (Module as unknown as { _load: unknown })._load = function (req: string, ...rest: unknown[]) {
      return req === "vscode" ? fake.vscode : load.call(this, req, ...rest);
    };
    ext = require(join(EXT_ROOT, "dist", "extension.js"));
    await ext.activate({
      subscriptions: [],
      extensionPath: EXT_ROOT,
      extensionUri: Uri.file(EXT_ROOT),
      workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => void state.set(k, v), keys: () => [...state.keys()] },
    });
  });

  after(async () => {
    await ext?.deactivate();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("says which setting points nowhere", async () => {
    for (let i = 0; i < 100 && fake.messages.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(fake.messages, [{ kind: "error", text: `pluginLsp.serverPath: no file at ${join(work, "missing", "plugin-lsp")}` }]);
    for (const id of Object.values(CLIENT_COMMANDS)) assert.ok(fake.commands.has(id), id);
  });

  it("shows the missing server in the panel instead of failing silently", async () => {
    await fake.vscode.commands.executeCommand(CLIENT_COMMANDS.runTool);
    const panel = fake.panels[0];
    assert.ok(panel, "the panel opens without a server");
    panel.receive({ type: "run", input: `{"isbn": "9780261103344"}` });
    let result: { html: string } | undefined;
    for (let i = 0; i < 500 && !result; i++) {
      await new Promise((r) => setTimeout(r, 10));
      result = panel.posted.find((m) => (m as { type: string }).type === "result") as { html: string } | undefined;
    }
    assert.ok(result, "a result message");
    assert.equal(visibleText(result.html), "not run Error The plugin-lsp server is not running (see the Plugin LSP output).");
  });
});
