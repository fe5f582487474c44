// The real bundled client (dist/extension.js, with vscode-languageclient
// inside) activated against a fake `vscode` module and the real server
// binary: it starts `plugin-lsp serve`, registers the palette commands,
// turns the server's Run lens into the preview panel, runs tools with the
// remembered input, opens .ts locations, shows the review card and restarts.

import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CLIENT_COMMANDS, SERVER_COMMANDS } from "../src/commands";
import { rememberKey } from "../src/prefill";
import { createFakeVscode, fakeDocument, type FakePanel, Uri } from "./fakevscode";
import { EXT_ROOT, REPO_ROOT, buildServer, visibleText } from "./util";

/** Waits for `cond` (polling); fails with `what` after a generous bound. Asserts nothing about time. */
async function until<T>(what: string, cond: () => T | undefined | false, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Extension {
  activate(ctx: unknown): Promise<void>;
  deactivate(): Promise<void>;
}

describe("the bundled client activated in a fake VS Code", { timeout: 240_000 }, () => {
  let work: string;
  let plugin: string;
  let fake: ReturnType<typeof createFakeVscode>;
  let ext: Extension;
  let binary: string;
  const state = new Map<string, unknown>();
  const context = {
    subscriptions: [] as Array<{ dispose(): unknown }>,
    extensionPath: EXT_ROOT,
    extensionUri: Uri.file(EXT_ROOT),
    workspaceState: {
      get: (k: string, d?: unknown) => (state.has(k) ? state.get(k) : d),
      update: async (k: string, v: unknown) => void state.set(k, v),
      keys: () => [...state.keys()],
    },
    globalState: { get: () => undefined, update: async () => undefined, keys: () => [], setKeysForSync: () => undefined },
    asAbsolutePath: (p: string) => join(EXT_ROOT, p),
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "plugin-lsp-activate-"));
    binary = buildServer(join(work, "bin", "plugin-lsp"));
    plugin = join(work, "books");
    cpSync(join(REPO_ROOT, "testdata", "example", "books"), plugin, { recursive: true });
    const manifest = join(plugin, "plugin.json");
    fake = createFakeVscode({
      workspaceFolder: work,
      settings: { serverPath: binary, timeout: "7s", providers: "fake", builtins: [], debounceMs: 0 },
      files: [manifest],
      documents: [fakeDocument(Uri.file(manifest), "json", readFileSync(manifest, "utf8"))],
      quickPick: (items) => items.find((i) => i.label === "lookupBook"),
    });
    const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
    (Module as unknown as { _load: unknown })._load = function (req: string, ...rest: unknown[]) {
      return req === "vscode" ? fake.vscode : load.call(this, req, ...rest);
    };
    ext = require(join(EXT_ROOT, "dist", "extension.js")) as Extension;
    await ext.activate(context);
  }, { timeout: 600_000 });

  after(async () => {
    await ext?.deactivate();
    for (const d of context.subscriptions) d.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const dirUri = () => Uri.file(plugin).toString();
  const lastResult = (p: FakePanel) => [...p.posted].reverse().find((m) => (m as { type: string }).type === "result") as { html: string } | undefined;

  it("registers the palette commands and starts the configured server", async () => {
    for (const id of Object.values(CLIENT_COMMANDS)) assert.ok(fake.commands.has(id), id);
    assert.ok(fake.output.some((l) => l === `Starting ${binary} serve (setting)`), fake.output.join("\n"));
    // The language client registers the server's commands once initialize answered.
    await until("server commands", () => fake.commands.has(SERVER_COMMANDS.runTool));
    assert.deepEqual(fake.messages.filter((m) => m.kind === "error"), []);
  });

  it("gets diagnostics for the open plugin.json", async () => {
    const diags = await until("diagnostics", () => {
      const map = fake.providers.get("diagnostics")?.[0] as Map<string, unknown[]> | undefined;
      return map?.get(Uri.file(join(plugin, "plugin.json")).toString());
    });
    assert.deepEqual((diags as Array<{ severity: number }>).filter((d) => d.severity === 0), [], "no errors in the example plugin");
  });

  it("turns the Run lens into the preview panel, run with the remembered input", async () => {
    await context.workspaceState.update(rememberKey(dirUri(), "lookupBook"), `{"isbn": "9780261103344"}`);
    const registered = fake.providers.get("registerCodeLensProvider");
    assert.ok(registered && registered.length > 0, "a code lens provider is registered");
    const provider = (registered[0] as unknown[])[1] as { provideCodeLenses(doc: unknown, token: unknown): Promise<Array<{ command?: { command: string; arguments?: unknown[] } }>> };
    const doc = (fake.vscode.workspace.textDocuments as unknown[])[0];
    const lenses = await provider.provideCodeLenses(doc, new fake.vscode.CancellationTokenSource().token);
    const lens = lenses.find((l) => (l.command?.arguments?.[0] as { tool?: string })?.tool === "lookupBook");
    assert.ok(lens?.command, JSON.stringify(lenses));
    assert.equal(lens.command.command, SERVER_COMMANDS.runTool);
    // VS Code runs a lens's command through the command registry.
    await fake.vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
    const panel = await until("a panel", () => fake.panels[0]);
    assert.equal(panel.title, "Run lookupBook");
    assert.deepEqual(panel.preserveFocus, [true], "a run from a lens leaves the keyboard in the editor");
    const html = panel.htmls[0];
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src https:\/\/fake\.vscode-cdn\.net 'nonce-[A-Za-z0-9]{32}'; script-src 'nonce-[A-Za-z0-9]{32}';">/);
    assert.ok(html.includes(`src="https://fake.vscode-cdn.net${join(EXT_ROOT, "dist", "webview.js")}"`), "the script comes from dist/ through asWebviewUri");
    assert.ok(html.includes(`{&quot;isbn&quot;: &quot;9780261103344&quot;}</textarea>`), "the remembered input fills the box");
    const result = await until("a result", () => lastResult(panel));
    assert.deepEqual(panel.posted[0], { type: "running" });
    const text = visibleText(result.html);
    assert.ok(text.includes("Result Title The Hobbit"), text);
    assert.ok(text.includes("Timeout 7 s"), `pluginLsp.timeout reached the run: ${text}`);
  });

  it("runs what the page posts, remembers it, and opens clicked .ts locations", async () => {
    const panel = fake.panels[0];
    const before = panel.posted.length;
    panel.receive({ type: "run", input: `{"isbn": "0000000000"}` });
    const result = await until("a second result", () => panel.posted.length >= before + 2 && lastResult(panel));
    assert.equal(context.workspaceState.get(rememberKey(dirUri(), "lookupBook")), `{"isbn": "0000000000"}`);
    const link = /data-file="([^"]+)" data-line="(\d+)" data-column="(\d+)"/.exec(result.html);
    assert.ok(link, result.html);
    panel.receive({ type: "open", file: link[1], line: Number(link[2]), column: Number(link[3]) });
    const shown = await until("the .ts file shown", () => fake.shown[0]);
    assert.equal(shown.uri, Uri.file(join(plugin, link[1])).toString());
    assert.deepEqual([shown.selection?.start.line, shown.selection?.start.character], [Number(link[2]) - 1, Number(link[3]) - 1]);
    // A location outside the plugin (a run is untrusted) is not opened.
    panel.receive({ type: "open", file: "../../etc/passwd.ts", line: 1, column: 1 });
    await until("a warning", () => fake.messages.find((m) => m.kind === "warning"));
    assert.equal(fake.shown.length, 1);
  });

  it("refuses input that is not JSON without calling the server", async () => {
    const panel = fake.panels[0];
    const before = panel.posted.length;
    panel.receive({ type: "run", input: `{"isbn": }` });
    const msg = await until("an input error", () => panel.posted.length > before && panel.posted[panel.posted.length - 1]);
    assert.deepEqual(msg, { type: "inputError", message: (msg as { message: string }).message });
    assert.match((msg as { message: string }).message, /^Input is not JSON \(line 1, column 10\)/);
  });

  it("Run Tool… picks the plugin and the tool and opens its panel with the schema's input", async () => {
    state.clear();
    fake.panels[0].dispose();
    await fake.vscode.commands.executeCommand(CLIENT_COMMANDS.runTool);
    const panel = await until("a new panel", () => fake.panels[1]);
    assert.equal(panel.title, "Run lookupBook");
    assert.ok(panel.htmls[0].includes(`{\n  &quot;isbn&quot;: &quot;9780261103344&quot;\n}</textarea>`), panel.htmls[0]);
    assert.deepEqual(panel.posted, [], "the palette does not run before the author presses Run");
    assert.deepEqual(panel.preserveFocus, [false], "a panel opened to edit its input takes the focus");
    // The lens on an open panel reveals it without taking the focus.
    await fake.vscode.commands.executeCommand(SERVER_COMMANDS.runTool, { dir: dirUri(), tool: "lookupBook" });
    await until("a run in the palette's panel", () => panel.posted.length > 0);
    assert.deepEqual(panel.preserveFocus, [false, true]);
  });

  it("a native tool's panel gets its description and inputJsonSchema from the server (its module), and its run asks first", async () => {
    state.clear();
    await fake.vscode.commands.executeCommand(CLIENT_COMMANDS.runTool, { dir: dirUri(), tool: "tg.sendMessage" });
    const panel = await until("the native tool's panel", () => fake.panels.find((p) => p.title === "Run tg.sendMessage" && p.htmls.length > 0));
    // plugin.json names the tool only; the schema's example is in native/telegram.js.
    assert.ok(panel.htmls[0].includes(`{\n  &quot;chat&quot;: &quot;@books&quot;,\n  &quot;text&quot;: &quot;Finished The Hobbit&quot;\n}</textarea>`), panel.htmls[0]);
    assert.ok(panel.htmls[0].includes("Send a Telegram message to a chat"), "the module's description");
    assert.ok(panel.htmls[0].includes(`<span class="tool">tg.sendMessage</span>`), "a native tool is not shown as fn.<name>");
    assert.deepEqual(panel.posted, [], "opened to edit its input: nothing ran");
    // Run: the server asks first (window/showMessageRequest, which VS Code
    // shows as a warning with the actions); the fake dismisses it, so nothing runs.
    panel.receive({ type: "run", input: `{"chat": "@books", "text": "hi"}` });
    const result = await until("the declined run's result", () => lastResult(panel));
    assert.match(visibleText(result.html), /tg\.sendMessage was not run: running a native tool with full authority was declined/);
    assert.ok(
      fake.messages.some((m) => m.kind === "warning" && /^Run tg\.sendMessage \(native\/telegram\.js, sha256:[0-9a-f]{64}\) with full authority on this machine\?$/.test(m.text)),
      JSON.stringify(fake.messages),
    );
    panel.dispose();
  });

  const reviewPanel = (n: number) => until(`review view ${n}`, () => fake.panels.filter((p) => p.viewType === "pluginLsp.pinReview" && p.htmls.length > 0)[n]);
  const lockPath = () => join(plugin, "plugin.lock.json");

  it("plugin.pin from a command: link, confirm and approval included, opens the review view and pins nothing", async () => {
    // A command: link reaches server commands as editor commands; what it
    // says (confirm: true, an approval) is not forwarded: the view opens.
    const outcome = fake.vscode.commands.executeCommand(SERVER_COMMANDS.pin, { dir: dirUri(), confirm: true, approval: "0".repeat(32) }) as Promise<{ pinned: boolean }>;
    const view = await reviewPanel(0);
    const html = view.htmls[view.htmls.length - 1];
    assert.equal(view.title, "Pin books");
    assert.ok(!existsSync(lockPath()), "no snapshot written before Pin");
    assert.ok(html.indexOf(`id="changes"`) < html.indexOf(`id="card"`), "the changes come first");
    assert.match(visibleText(html), /First pin No pinned snapshot \(plugin\.lock\.json\): everything on this card is new/);
    assert.match(visibleText(html), /Plugin books 1\.2\.0 Source-tree hash: sha256:[0-9a-f]{64}/);
    assert.ok(visibleText(html).includes("needsApproval: always"), "the native tools' details are on the card");
    assert.equal(fake.messages.filter((m) => m.text.includes("Review what you approve")).length, 0, "no toast");
    view.receive({ type: "cancel" });
    assert.deepEqual(await outcome, { pinned: false, changes: [] });
    assert.ok(view.disposed, "Cancel closes the view");
    assert.ok(!existsSync(lockPath()), "Cancel writes nothing");
  });

  it("Pin Capability Snapshot in the palette pins a first snapshot when Pin is pressed", async () => {
    const outcome = fake.vscode.commands.executeCommand(CLIENT_COMMANDS.pinSnapshot) as Promise<{ pinned: boolean; file?: string }>;
    const view = await reviewPanel(1);
    assert.ok(!existsSync(lockPath()));
    view.receive({ type: "pin" });
    const res = await outcome;
    assert.equal(res.pinned, true, JSON.stringify(res));
    assert.equal(res.file, lockPath());
    assert.match(readFileSync(lockPath(), "utf8"), /"sourceTreeHash": "sha256:[0-9a-f]{64}"/);
    assert.ok(view.disposed);
  });

  it("re-pin: the quick fix opens the view with the widened reach first and highlighted; Cancel keeps the old pin, Pin writes the new", async () => {
    const manifestPath = join(plugin, "plugin.json");
    const original = readFileSync(manifestPath, "utf8");
    writeFileSync(manifestPath, original.replace(`"api.openlibrary.org",`, `"api.openlibrary.org", "api.evil-cdn.example",`));
    const pinned = readFileSync(lockPath(), "utf8");
    // The quick fix's command, as the server offers it: plugin.pin {uri}.
    const first = fake.vscode.commands.executeCommand(SERVER_COMMANDS.pin, { uri: Uri.file(manifestPath).toString() }) as Promise<{ pinned: boolean }>;
    const view = await reviewPanel(2);
    const html = view.htmls[view.htmls.length - 1];
    const changes = html.slice(html.indexOf(`id="changes"`), html.indexOf(`id="card"`));
    assert.ok(html.indexOf(`id="changes"`) < html.indexOf(`id="card"`));
    assert.match(changes, /class="changes widened"/);
    assert.match(changes, /<li class="added"><span class="sign">\+<\/span> api\.evil-cdn\.example \(fetch, tools lookupBook, searchBooks, saveFavourite\)<\/li>/);
    assert.match(visibleText(changes), /What changed since the pin Since the pinned snapshot \(sha256:[0-9a-f]{64}\)/);
    view.receive({ type: "cancel" });
    assert.equal((await first).pinned, false);
    assert.equal(readFileSync(lockPath(), "utf8"), pinned, "Cancel leaves the pin as it was");
    const second = fake.vscode.commands.executeCommand(SERVER_COMMANDS.pin, { uri: Uri.file(manifestPath).toString() }) as Promise<{ pinned: boolean; changes: string[] }>;
    (await reviewPanel(3)).receive({ type: "pin" });
    const res = await second;
    assert.equal(res.pinned, true);
    assert.deepEqual(res.changes, ["+ api.evil-cdn.example (fetch, tools lookupBook, searchBooks, saveFavourite)"]);
    assert.ok(readFileSync(lockPath(), "utf8").includes("api.evil-cdn.example"));
    writeFileSync(manifestPath, original);
  });

  it("Pin after the files changed since the card was shown pins nothing and shows the card as it is now", async () => {
    const before = readFileSync(lockPath(), "utf8");
    const outcome = fake.vscode.commands.executeCommand(CLIENT_COMMANDS.pinSnapshot) as Promise<{ pinned: boolean }>;
    const view = await reviewPanel(4);
    const shown = view.htmls.length;
    const extra = join(plugin, "code", "late.ts");
    writeFileSync(extra, "export default () => 1;\n");
    view.receive({ type: "pin" });
    await until("the card rendered again", () => view.htmls.length > shown);
    const html = view.htmls[view.htmls.length - 1];
    assert.match(visibleText(html), /Not pinned: .*the plugin changed on disk since its review card was shown/);
    assert.ok(visibleText(html).includes("+ code/late.ts"), "the new card shows the new file");
    assert.equal(readFileSync(lockPath(), "utf8"), before, "nothing written");
    view.receive({ type: "cancel" });
    assert.equal((await outcome).pinned, false);
    rmSync(extra);
  });

  it("shows the review card", async () => {
    await fake.vscode.commands.executeCommand(CLIENT_COMMANDS.showReviewCard);
    const preview = await until("the preview", () => fake.executed.find((e) => e.command === "markdown.showPreview"));
    const uri = preview.args[0] as { scheme: string; path: string };
    assert.equal(uri.scheme, "plugin-review", "a read-only document, not an Untitled buffer left behind");
    const content = fake.contentProviders.get("plugin-review")!.provideTextDocumentContent(uri as never);
    assert.ok(content.startsWith("# Plugin books 1.2.0\n"), content);
    assert.ok(content.includes("## Since the pinned snapshot (`sha256:"), "the server's card, with what changed since the pin");
    assert.deepEqual(fake.opened.filter((o) => o.uri === undefined), [], "no untitled document opened");
  });

  it("shows exactly the server's Markdown of the card (the extension renders no card of its own)", async () => {
    const previews = () => fake.executed.filter((e) => e.command === "markdown.showPreview").length;
    const before = previews();
    const reply = (await fake.vscode.commands.executeCommand(SERVER_COMMANDS.reviewCard, { dir: dirUri() })) as { markdown?: unknown };
    assert.equal(typeof reply.markdown, "string", "the server renders the card");
    await until("the preview", () => previews() > before);
    const preview = fake.executed.filter((e) => e.command === "markdown.showPreview").at(-1)!;
    const content = fake.contentProviders.get("plugin-review")!.provideTextDocumentContent(preview.args[0] as never);
    assert.equal(content, reply.markdown, "the preview is the server's text, byte for byte");
  });

  it("restarts the server", async () => {
    const starts = () => fake.output.filter((l) => l.startsWith("Starting ")).length;
    assert.equal(starts(), 1);
    await fake.vscode.commands.executeCommand(CLIENT_COMMANDS.restartServer);
    assert.equal(starts(), 2);
    assert.ok(fake.messages.some((m) => m.kind === "status" && m.text === "Plugin LSP: server restarted"));
    await until("server commands after restart", () => fake.commands.has(SERVER_COMMANDS.runTool));
  });
});
