// The VS Code client: starts `plugin-lsp serve` over stdio when a plugin is
// around, forwards the pluginLsp.* settings, and adds the palette commands
// (Run Tool…, Show Review Card, Pin Capability Snapshot, Restart Server),
// the run preview panel and the pin review view (review.ts).

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { CLIENT_COMMANDS, DOCUMENT_SELECTOR, SERVER_COMMANDS, WATCH_GLOB } from "./commands";
import { readSettings, resolveServer, serverCommand, serverConfiguration } from "./launch";
import { configureTsserverPlugin } from "./tsplugin";
import { isJsonPath, withoutJsonServiceDuplicates } from "./owners";
import { RunPanels, type ToolTarget } from "./panel";
import { listTools } from "./prefill";
import { PluginTests, type RunTestsArgs, type TestResult } from "./testing";
import type { RunRecord, RunToolArgs } from "./record";
import { noticeText } from "./render";
import { PinReviews, type PinOutcome } from "./review";

const MANIFEST = "plugin.json";

let state: ExtensionState | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  state = new ExtensionState(context);
  context.subscriptions.push(state);
  await state.activate();
}

export async function deactivate(): Promise<void> {
  await state?.stopClient();
  state = undefined;
}

class ExtensionState implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private readonly output = vscode.window.createOutputChannel("Plugin LSP");
  private readonly panels: RunPanels;
  private readonly reviews: PinReviews;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    this.panels = new RunPanels(context, (target, input, token) => this.runTool(target, input, token));
    this.reviews = new PinReviews((command, args) => this.sendCommand(command, args), (line) => this.output.appendLine(line));
  }

  async activate(): Promise<void> {
    this.disposables.push(
      this.output,
      vscode.commands.registerCommand(CLIENT_COMMANDS.runTool, (arg?: unknown) => this.cmdRunTool(arg)),
      vscode.commands.registerCommand(CLIENT_COMMANDS.showReviewCard, (arg?: unknown) => this.cmdReviewCard(arg)),
      vscode.commands.registerCommand(CLIENT_COMMANDS.pinSnapshot, (arg?: unknown) => this.cmdPin(arg)),
      vscode.commands.registerCommand(CLIENT_COMMANDS.restartServer, () => this.restart()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("pluginLsp.serverPath") && this.client) void this.restart();
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (isManifest(doc.uri)) void this.ensureClient();
      }),
    );
    // The Testing view (src/testing.ts); a host without the testing API
    // (an old or stripped-down one) simply has no test items.
    if (typeof vscode.tests?.createTestController === "function") {
      const tests = new PluginTests(vscode, (args, token) => this.runTests(args, token), (dir) => exists(vscode.Uri.joinPath(dir, MANIFEST)));
      this.disposables.push(tests);
      void tests.discover();
    }
    // Activated by onLanguage:json for any JSON file: start the server only
    // when a plugin is actually here.
    const manifestOpen = vscode.workspace.textDocuments.some((d) => isManifest(d.uri));
    const inWorkspace = (await vscode.workspace.findFiles(`**/${MANIFEST}`, "**/node_modules/**", 1)).length > 0;
    // Activation does not wait for the server; commands wait for it.
    if (manifestOpen || inWorkspace) void this.ensureClient();
  }

  /** Starts the client once; later calls share the same start. */
  ensureClient(): Promise<LanguageClient | undefined> {
    if (this.client) return Promise.resolve(this.client);
    if (!this.starting) {
      this.starting = this.startClient().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private async startClient(): Promise<LanguageClient | undefined> {
    const config = vscode.workspace.getConfiguration("pluginLsp");
    const settings = readSettings((key) => config.get(key));
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const resolved = resolveServer(settings.serverPath, {
      extensionPath: this.context.extensionPath,
      platform: process.platform,
      arch: process.arch,
      envPath: process.env.PATH,
      home: os.homedir(),
      workspaceFolder: folder,
      isFile: (p) => {
        try {
          return fs.statSync(p).isFile();
        } catch {
          return false;
        }
      },
    });
    if (!resolved.ok) {
      this.output.appendLine(resolved.message);
      // Not awaited: a command waiting for the client must not wait for the author to close the message.
      void vscode.window.showErrorMessage(noticeText(resolved.message), "Open Settings").then((choice) => {
        if (choice === "Open Settings") {
          void vscode.commands.executeCommand("workbench.action.openSettings", "pluginLsp.serverPath");
        }
      });
      return undefined;
    }
    this.output.appendLine(`Starting ${resolved.command} serve (${resolved.source})`);
    // The pages' declarations when a plugin has no .plugin/types.d.ts (docs/extension.md): the same binary prints them.
    const storage = this.context.globalStorageUri?.fsPath;
    void configureTsserverPlugin(vscode.extensions, { command: resolved.command, args: [], cacheDir: storage ? path.join(storage, "tsserver-types") : "" }).catch((e) =>
      this.output.appendLine(`TypeScript plugin: ${e instanceof Error ? e.message : String(e)}`),
    );
    const cmd = serverCommand(resolved.command);
    this.watcher?.dispose();
    const watcher = vscode.workspace.createFileSystemWatcher(WATCH_GLOB);
    this.watcher = watcher;
    const serverOptions: ServerOptions = {
      run: { command: cmd.command, args: cmd.args, options: { cwd: folder } },
      debug: { command: cmd.command, args: cmd.args, options: { cwd: folder } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      outputChannel: this.output,
      initializationOptions: serverConfiguration(settings),
      synchronize: {
        configurationSection: "pluginLsp",
        fileEvents: watcher,
      },
      middleware: {
        // One report per problem, one outline, one run summary: see owners.ts.
        handleDiagnostics: (uri, diagnostics, next) => next(uri, withoutJsonServiceDuplicates(uri.fsPath, diagnostics)),
        provideDiagnostics: async (document, previousResultId, token, next) => {
          const report = await next(document, previousResultId, token);
          const uri = document instanceof vscode.Uri ? document : document.uri;
          if (report && report.kind === "full") report.items = withoutJsonServiceDuplicates(uri.fsPath, report.items);
          return report;
        },
        provideDocumentSymbols: (document, token, next) => (isJsonPath(document.uri.fsPath) ? [] : next(document, token)),
        provideInlayHints: () => [],
        // Code lenses and other server-sent commands call plugin.runTool
        // directly; show their result in the preview panel as well.
        executeCommand: async (command, args, next) => {
          // Server commands are editor commands too, so a command: link can
          // call them: plugin.pin is never forwarded (whatever its confirm
          // or approval says); it opens the review view, and only the view's
          // Pin button pins (review.ts).
          if (command === SERVER_COMMANDS.pin) {
            const a = (args[0] && typeof args[0] === "object" ? args[0] : {}) as { dir?: unknown; uri?: unknown };
            return this.reviewPin(typeof a.dir === "string" ? a.dir : typeof a.uri === "string" ? a.uri : undefined);
          }
          if (command === SERVER_COMMANDS.runTool && args.length > 0) {
            const a = args[0] as RunToolArgs;
            const target = await this.targetFromArgs(a);
            if (target) {
              this.panels.show(target, { run: true, input: a.input });
              return undefined;
            }
          }
          if (command === SERVER_COMMANDS.reviewCard) {
            // The card to read; an approval token is for the view alone.
            args = args.map((a) => (a && typeof a === "object" ? { ...(a as object), approve: undefined } : a));
            const result = await next(command, args);
            await showReviewCard(result);
            return result;
          }
          return next(command, args);
        },
      },
    };
    const client = new LanguageClient("pluginLsp", "Plugin LSP", serverOptions, clientOptions);
    try {
      await client.start();
    } catch (e) {
      const msg = `plugin-lsp serve failed to start: ${e instanceof Error ? e.message : String(e)}`;
      this.output.appendLine(msg);
      void vscode.window.showErrorMessage(noticeText(msg));
      return undefined;
    }
    this.client = client;
    return client;
  }

  async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(2000);
      } catch (e) {
        this.output.appendLine(`stop: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  private async restart(): Promise<void> {
    await this.stopClient();
    const client = await this.ensureClient();
    if (client) void vscode.window.setStatusBarMessage("Plugin LSP: server restarted", 3000);
  }

  private async runTool(target: ToolTarget, input: unknown, token: vscode.CancellationToken): Promise<RunRecord> {
    const client = await this.ensureClient();
    if (!client) throw new Error("The plugin-lsp server is not running (see the Plugin LSP output).");
    const args: RunToolArgs = { dir: target.dir.toString(), tool: target.tool, input };
    const result = await client.sendRequest(
      ExecuteCommandRequest.type,
      { command: SERVER_COMMANDS.runTool, arguments: [args] },
      token,
    );
    return result as RunRecord;
  }

  /** One workspace/executeCommand sent to the server directly (not through the command registry). */
  private async sendCommand(command: string, args: unknown): Promise<unknown> {
    const client = await this.ensureClient();
    if (!client) throw new Error("The plugin-lsp server is not running (see the Plugin LSP output).");
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] });
  }

  /** Pin Capability Snapshot: the review view of the active editor's plugin (or the one picked). */
  private async cmdPin(arg?: unknown): Promise<PinOutcome> {
    let dir: vscode.Uri | undefined;
    if (arg instanceof vscode.Uri) dir = (await findPluginDir(arg)) ?? undefined;
    dir ??= await pickPluginDir();
    if (!dir) return { pinned: false, changes: [] };
    return this.reviews.open(dir);
  }

  /** plugin.pin from the command registry (the quick fix, a link): the review view, never a pin. */
  private async reviewPin(from: string | undefined): Promise<PinOutcome> {
    let dir: vscode.Uri | undefined;
    if (from) dir = (await findPluginDir(vscode.Uri.parse(from))) ?? undefined;
    dir ??= await pickPluginDir();
    if (!dir) return { pinned: false, changes: [] };
    return this.reviews.open(dir);
  }

  /** The Testing view's runs: plugin.runTests on the server. */
  private async runTests(args: RunTestsArgs, token: vscode.CancellationToken): Promise<TestResult[]> {
    const client = await this.ensureClient();
    if (!client) throw new Error("The plugin-lsp server is not running (see the Plugin LSP output).");
    const result = await client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.runTests, arguments: [args] }, token);
    return result as TestResult[];
  }

  /** Run Tool…: pick a plugin and a tool (or take them from the argument), then open its panel. */
  private async cmdRunTool(arg?: unknown): Promise<void> {
    if (arg && typeof arg === "object" && typeof (arg as RunToolArgs).tool === "string") {
      const a = arg as RunToolArgs;
      const target = await this.targetFromArgs(a);
      if (target) this.panels.show(target, { run: a.input !== undefined, input: a.input });
      return;
    }
    const dir = await pickPluginDir();
    if (!dir) return;
    const manifest = await readManifest(dir);
    if (!manifest) return;
    if (manifest.tools.length === 0) {
      void vscode.window.showInformationMessage(noticeText(`${manifest.name} declares no function tools.`));
      return;
    }
    const pick = await vscode.window.showQuickPick(
      manifest.tools.map((t) => ({ label: t.name, description: `fn.${t.name}`, detail: t.description, tool: t })),
      { placeHolder: `Run a tool of ${manifest.name}`, matchOnDetail: true },
    );
    if (!pick) return;
    this.panels.show({ dir, plugin: manifest.name, tool: pick.tool.name, description: pick.tool.description, inputJsonSchema: pick.tool.inputJsonSchema });
  }

  private async cmdReviewCard(arg?: unknown): Promise<void> {
    let dir: vscode.Uri | undefined;
    if (arg instanceof vscode.Uri) dir = (await findPluginDir(arg)) ?? undefined;
    dir ??= await pickPluginDir();
    if (!dir) return;
    const client = await this.ensureClient();
    if (!client) return;
    try {
      const result = await client.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_COMMANDS.reviewCard,
        arguments: [{ dir: dir.toString() }],
      });
      await showReviewCard(result);
    } catch (e) {
      void vscode.window.showErrorMessage(noticeText(`Review card: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  private async targetFromArgs(a: RunToolArgs): Promise<ToolTarget | undefined> {
    const from = a.dir ?? a.uri;
    let dir: vscode.Uri | undefined;
    if (typeof from === "string" && from !== "") {
      dir = (await findPluginDir(vscode.Uri.parse(from))) ?? undefined;
    }
    dir ??= await pickPluginDir();
    if (!dir) return undefined;
    const manifest = await readManifest(dir);
    const fn = manifest?.tools.find((t) => t.name === a.tool);
    const tool = fn ?? (await this.nativeTool(dir, a.tool));
    return {
      dir,
      plugin: manifest?.name ?? path.basename(dir.fsPath),
      tool: a.tool,
      description: tool?.description ?? "",
      inputJsonSchema: tool?.inputJsonSchema,
      native: !fn && tool !== undefined,
    };
  }

  /**
   * A native tool's description and inputJsonSchema: its module is read by
   * the server (plugin.nativeTool), never here. Undefined when the name is
   * not a native tool or the server cannot say.
   */
  private async nativeTool(dir: vscode.Uri, tool: string): Promise<{ description: string; inputJsonSchema: unknown } | undefined> {
    try {
      const info = (await this.sendCommand(SERVER_COMMANDS.nativeTool, { dir: dir.toString(), tool })) as { description?: unknown; inputJsonSchema?: unknown } | null;
      if (!info || typeof info !== "object") return undefined;
      return { description: typeof info.description === "string" ? info.description : "", inputJsonSchema: info.inputJsonSchema };
    } catch (e) {
      this.output.appendLine(`${SERVER_COMMANDS.nativeTool} ${tool}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  dispose(): void {
    reviewProvider?.dispose();
    reviewProvider = undefined;
    this.reviews.dispose();
    this.panels.dispose();
    this.watcher?.dispose();
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
    void this.stopClient();
  }
}

function isManifest(uri: vscode.Uri): boolean {
  return uri.scheme === "file" && path.basename(uri.fsPath) === MANIFEST;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The plugin directory holding `uri` (a file or a directory): the nearest ancestor with plugin.json. */
async function findPluginDir(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
  let dir = uri;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type !== vscode.FileType.Directory) dir = vscode.Uri.joinPath(uri, "..");
  } catch {
    dir = vscode.Uri.joinPath(uri, "..");
  }
  for (let i = 0; i < 32; i++) {
    if (await exists(vscode.Uri.joinPath(dir, MANIFEST))) return dir;
    const parent = vscode.Uri.joinPath(dir, "..");
    if (parent.toString() === dir.toString()) break;
    dir = parent;
  }
  return undefined;
}

/** The active editor's plugin, else the only plugin in the workspace, else the author's pick. */
async function pickPluginDir(): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === "file") {
    const dir = await findPluginDir(active);
    if (dir) return dir;
  }
  const manifests = await vscode.workspace.findFiles(`**/${MANIFEST}`, "**/node_modules/**", 200);
  if (manifests.length === 0) {
    void vscode.window.showWarningMessage("No plugin.json in this workspace.");
    return undefined;
  }
  const dirs = manifests.map((m) => vscode.Uri.joinPath(m, "..")).sort((a, b) => a.fsPath.localeCompare(b.fsPath));
  if (dirs.length === 1) return dirs[0];
  const pick = await vscode.window.showQuickPick(
    dirs.map((d) => ({ label: vscode.workspace.asRelativePath(d), dir: d })),
    { placeHolder: "Which plugin?" },
  );
  return pick?.dir;
}

async function readManifest(dir: vscode.Uri): Promise<{ name: string; tools: ReturnType<typeof listTools>["tools"] } | undefined> {
  const uri = vscode.Uri.joinPath(dir, MANIFEST);
  let text: string;
  try {
    // An open editor's unsaved text wins over the file on disk.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    void vscode.window.showErrorMessage(noticeText(`Cannot read ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`));
    return undefined;
  }
  const { tools, error } = listTools(text);
  if (error) {
    void vscode.window.showErrorMessage(noticeText(`${error} (see the Problems view)`));
    return undefined;
  }
  let name = path.basename(dir.fsPath);
  try {
    const m = JSON.parse(text) as { name?: unknown };
    if (typeof m.name === "string" && m.name !== "") name = m.name;
  } catch {
    // listTools already reported it
  }
  return { name, tools };
}

/** The read-only documents behind review-card previews: never an Untitled buffer to save or discard. */
const REVIEW_SCHEME = "plugin-review";
const reviewCards = new Map<string, string>();
const reviewChanged = new vscode.EventEmitter<vscode.Uri>();
let reviewProvider: vscode.Disposable | undefined;

async function showReviewCard(result: unknown): Promise<void> {
  reviewProvider ??= vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, {
    onDidChange: reviewChanged.event,
    provideTextDocumentContent: (uri) => reviewCards.get(uri.path) ?? "",
  });
  const c = result && typeof result === "object" ? (result as { plugin?: unknown }) : {};
  const name = typeof c.plugin === "string" && /^[A-Za-z0-9._-]+$/.test(c.plugin) ? c.plugin : "plugin";
  const uri = vscode.Uri.from({ scheme: REVIEW_SCHEME, path: `/${name} review card.md` });
  reviewCards.set(uri.path, cardMarkdown(result));
  reviewChanged.fire(uri);
  await vscode.commands.executeCommand("markdown.showPreview", uri);
}

/** The server's Markdown of the card (internal/authoring/review renders it; the client renders no card of its own). */
function cardMarkdown(result: unknown): string {
  const md = result && typeof result === "object" ? (result as { markdown?: unknown }).markdown : undefined;
  if (typeof md === "string") return md;
  // A server without it: the model as JSON, in a fence nothing in it can close.
  const json = JSON.stringify(result, null, 2) ?? "null";
  const fence = "`".repeat(Math.max(3, ...Array.from(json.matchAll(/`+/g), (m) => m[0].length + 1)));
  return `${fence}json\n${json}\n${fence}\n`;
}
