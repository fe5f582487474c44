// The client's launch and command wiring against the real server: the
// binary is built from ../cmd/plugin-lsp, started exactly as the extension
// starts it (resolveServer + serverCommand, settings through
// initializationOptions and workspace/configuration), and driven through
// vscode-languageserver-protocol with the commands and arguments the
// extension sends. No VS Code needed.

import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  ExecuteCommandRequest,
  type ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { DOCUMENT_SELECTOR, SERVER_COMMANDS } from "../src/commands";
import { readSettings, resolveServer, serverCommand, serverConfiguration } from "../src/launch";
import { listTools, parseInput, prefillInput } from "../src/prefill";
import type { RunRecord, RunToolArgs } from "../src/record";
import { renderMarkdown, renderRecord } from "../src/render";
import { REPO_ROOT, buildServer, visibleText } from "./util";

const TIMEOUT = 60_000;

describe("wiring against the real plugin-lsp serve", { timeout: 180_000 }, () => {
  let work: string;
  let plugin: string;
  let proc: ChildProcessWithoutNullStreams;
  let conn: ProtocolConnection;
  let stderr = "";
  let binary = "";
  let capabilities: Record<string, unknown>;
  const diagnostics = new Map<string, unknown[]>();
  const waiters: Array<() => void> = [];
  // What the client answers to workspace/configuration: the user's settings.
  const settings = readSettings((k) => ({ timeout: "7s", debounceMs: 0, builtins: ["acme.search"] } as Record<string, unknown>)[k]);

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "plugin-lsp-ext-"));
    binary = buildServer(join(work, "bin", "plugin-lsp"));
    plugin = join(work, "books");
    cpSync(join(REPO_ROOT, "testdata", "example", "books"), plugin, { recursive: true });
    // An optional draft 2020-12 keyword in lookupBook's schema (prefixItems
    // has no meaning before 2020-12), for the input-violation test below.
    const manifestPath = join(plugin, "plugin.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    manifest.tools.find((t: { name: string }) => t.name === "lookupBook").inputJsonSchema.properties.shelf = { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] };
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

    // The extension's resolution with pluginLsp.serverPath set to the fresh build.
    const resolved = resolveServer(binary, {
      extensionPath: join(work, "ext"),
      platform: process.platform,
      arch: process.arch,
      envPath: "",
      home: undefined,
      workspaceFolder: work,
      isFile: (p) => {
        try {
          return statSync(p).isFile();
        } catch {
          return false;
        }
      },
    });
    assert.deepEqual(resolved, { ok: true, command: binary, source: "setting" });
    const cmd = serverCommand(resolved.ok ? resolved.command : "");
    proc = spawn(cmd.command, cmd.args, { cwd: work, stdio: "pipe" });
    proc.stderr.on("data", (d) => {
      stderr += d.toString();
    });
    conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    conn.onRequest("workspace/configuration", (params: { items: Array<{ section?: string }> }) =>
      params.items.map((i) => (i.section === "pluginLsp" ? serverConfiguration(settings) : null)),
    );
    conn.onRequest("window/workDoneProgress/create", () => null);
    conn.onRequest("client/registerCapability", () => null);
    conn.onRequest("client/unregisterCapability", () => null);
    conn.onRequest("workspace/codeLens/refresh", () => null);
    conn.onRequest("workspace/inlayHint/refresh", () => null);
    conn.onRequest("workspace/diagnostic/refresh", () => null);
    conn.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: unknown[] }) => {
      diagnostics.set(p.uri, p.diagnostics);
      for (const w of waiters.splice(0)) w();
    });
    conn.onNotification("window/logMessage", () => undefined);
    conn.onNotification("$/progress", () => undefined);
    conn.listen();

    const init = (await conn.sendRequest("initialize", {
      processId: process.pid,
      clientInfo: { name: "plugin-lsp wiring test" },
      rootUri: pathToFileURL(work).toString(),
      workspaceFolders: [{ uri: pathToFileURL(work).toString(), name: "work" }],
      initializationOptions: serverConfiguration(settings),
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceFolders: true, codeLens: { refreshSupport: true } },
        window: { workDoneProgress: true },
        textDocument: {
          synchronization: { didSave: true },
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
          codeLens: {},
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix"] } } },
        },
      },
    })) as { capabilities: Record<string, unknown> };
    capabilities = init.capabilities;
    await conn.sendNotification("initialized", {});
  }, { timeout: 600_000 });

  after(async () => {
    if (conn) {
      try {
        await Promise.race([conn.sendRequest("shutdown"), new Promise((r) => setTimeout(r, 5000))]);
        await conn.sendNotification("exit");
      } catch {
        // the exit check below reports it
      }
    }
    if (proc && proc.exitCode === null) {
      await Promise.race([new Promise((r) => proc.once("exit", r)), new Promise((r) => setTimeout(r, 5000))]);
      if (proc.exitCode === null) proc.kill();
    }
    conn?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const manifestUri = () => pathToFileURL(join(plugin, "plugin.json")).toString();
  const dirUri = () => pathToFileURL(plugin).toString();

  async function run(args: RunToolArgs): Promise<RunRecord> {
    const r = await conn.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.runTool, arguments: [args] });
    return r as RunRecord;
  }

  it("serves the commands the extension calls", () => {
    const exec = capabilities.executeCommandProvider as { commands: string[] } | undefined;
    assert.ok(exec, `no executeCommandProvider; stderr: ${stderr}`);
    for (const c of Object.values(SERVER_COMMANDS)) assert.ok(exec.commands.includes(c), `${c} in ${exec.commands}`);
    assert.ok(capabilities.codeLensProvider, "code lenses (the Run lens the middleware turns into the panel)");
    assert.ok(DOCUMENT_SELECTOR.some((s) => s.pattern === "**/plugin.json"));
  });

  it("publishes diagnostics for an opened plugin.json", { timeout: TIMEOUT }, async () => {
    const text = readFileSync(join(plugin, "plugin.json"), "utf8");
    const published = new Promise<void>((resolve) => waiters.push(resolve));
    await conn.sendNotification("textDocument/didOpen", { textDocument: { uri: manifestUri(), languageId: "json", version: 1, text } });
    await published;
    // Other files of the plugin may come first (the edited manifest makes
    // .plugin/types.d.ts stale: types-stale); the test's timeout bounds the wait.
    while (!diagnostics.has(manifestUri())) await new Promise<void>((resolve) => waiters.push(resolve));
    assert.ok(diagnostics.has(manifestUri()), `published for ${[...diagnostics.keys()]}`);
    const errors = (diagnostics.get(manifestUri()) as Array<{ severity?: number; code?: unknown; message: string }>).filter((d) => d.severity === 1);
    assert.deepEqual(errors, [], "the example plugin has no errors");
  });

  it("offers a Run lens per tool whose command and argument the client understands", { timeout: TIMEOUT }, async () => {
    const lenses = (await conn.sendRequest("textDocument/codeLens", { textDocument: { uri: manifestUri() } })) as Array<{
      command?: { command: string; arguments?: unknown[] };
    }>;
    const runs = lenses.filter((l) => l.command?.command === SERVER_COMMANDS.runTool);
    const manifestText = readFileSync(join(plugin, "plugin.json"), "utf8");
    const tools = listTools(manifestText).tools.map((t) => t.name);
    // Each declared native tool has its lens too (it asks before it runs).
    const natives = ((JSON.parse(manifestText) as { nativeTools?: Array<{ names?: string[] }> }).nativeTools ?? []).flatMap((n) => n.names ?? []);
    assert.ok(natives.length > 0, "the example declares native tools");
    assert.deepEqual(runs.map((l) => (l.command!.arguments![0] as RunToolArgs).tool).sort(), [...tools, ...natives].sort());
    for (const l of runs) {
      const a = l.command!.arguments![0] as RunToolArgs;
      assert.ok(typeof a.dir === "string" || typeof a.uri === "string", "the lens says which plugin");
    }
  });

  it("runs lookupBook with the input the panel sends and renders the record", { timeout: TIMEOUT }, async () => {
    const schema = listTools(readFileSync(join(plugin, "plugin.json"), "utf8")).tools.find((t) => t.name === "lookupBook")!.inputJsonSchema;
    // The author fills the prefilled box: {"isbn": ""} → {"isbn": "9780261103344"}.
    const text = prefillInput(schema).replace(`""`, `"9780261103344"`);
    const input = parseInput(text);
    assert.ok(input.ok);
    const record = await run({ dir: dirUri(), tool: "lookupBook", input: input.ok ? input.value : null });
    assert.equal(record.ok, true, JSON.stringify(record.error));
    assert.match(record.claim ?? "", /^fn\.lookupBook:\S+$/);
    assert.deepEqual(record.result, { type: "stat", value: "The Hobbit", label: "Title" });
    assert.equal(record.fetches?.length, 1);
    const f = record.fetches![0];
    assert.equal(f.url, "https://api.openlibrary.org/isbn/9780261103344.json");
    assert.equal(f.status, 200);
    assert.equal(f.source, "fixture");
    assert.deepEqual(f.credentials, ["openlibrary_key"]);
    assert.deepEqual(record.logs, [{ level: "log", message: "found The Hobbit" }]);
    // pluginLsp.timeout reached the server through the configuration answer.
    assert.equal(record.usage?.timeoutMs, 7000);
    const html = renderRecord(record);
    const shown = visibleText(html);
    assert.ok(shown.includes("Result Title The Hobbit"), shown);
    assert.ok(shown.includes("GET https://api.openlibrary.org/isbn/9780261103344.json 200"), shown);
    assert.ok(!JSON.stringify(record).includes("dev-ol-4f9c2e7a1b") && !html.includes("dev-ol-4f9c2e7a1b"), "the secret never reaches the client");
  });

  it("reports a thrown error with a clickable .ts location", { timeout: TIMEOUT }, async () => {
    const record = await run({ uri: manifestUri(), tool: "lookupBook", input: { isbn: "0000000000" } });
    assert.equal(record.ok, false);
    assert.ok(record.error && typeof record.error.message === "string" && record.error.message !== "", JSON.stringify(record));
    assert.equal(record.error!.file, "code/lookup-book.ts");
    const html = renderRecord(record);
    assert.ok(html.includes(`data-file="code/lookup-book.ts" data-line="${record.error!.line}"`), html);
  });

  it("reports an input that breaks a draft 2020-12 keyword at its JSON pointer, before the tool runs", { timeout: TIMEOUT }, async () => {
    const record = await run({ dir: dirUri(), tool: "lookupBook", input: { isbn: "9780261103344", shelf: ["fiction", "third"] } });
    assert.equal(record.ok, false);
    assert.equal(record.error?.name, "InputError", JSON.stringify(record.error));
    const violations = record.error?.violations ?? [];
    assert.deepEqual(violations.map((v) => v.pointer), ["/shelf/1"], JSON.stringify(violations));
    assert.match(violations[0].message ?? "", /integer/);
    assert.deepEqual(record.fetches ?? [], [], "the page never ran");
    const shown = visibleText(renderRecord(record));
    assert.ok(shown.includes(`/shelf/1 ${violations[0].message}`), shown);
  });

  it("rejects a run of an unknown tool with a message the panel shows", { timeout: TIMEOUT }, async () => {
    await assert.rejects(run({ dir: dirUri(), tool: "noSuchTool" }), /noSuchTool/);
  });

  it("returns the review card in Markdown that reads as the CLI card", { timeout: TIMEOUT }, async () => {
    const card = (await conn.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.reviewCard, arguments: [{ dir: dirUri() }] })) as { markdown: string; approval?: string };
    const md = card.markdown;
    assert.ok(md.startsWith("# Plugin books 1.2.0\n"), md);
    assert.match(md, /Source-tree hash: `sha256:[0-9a-f]{64}`/);
    assert.equal(card.approval, undefined, "no approval token without approve");
    // Rendered as the view renders it (markdown-it), the card says what
    // `plugin-lsp review` prints, word for word.
    const words = (s: string) => s.replace(/:(?=\s|$)/g, "").replace(/\s+/g, " ").trim();
    const cli = execFileSync(binary, ["review", plugin], { encoding: "utf8" });
    assert.equal(words(visibleText(renderMarkdown(md))), words(cli));
  });
});
