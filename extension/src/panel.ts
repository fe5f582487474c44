// RunPanel is the preview webview of one plugin tool: the input box, and the
// rendered record of its last run. The HTML comes from page.ts/render.ts;
// this file only wires it to VS Code (messages, remembering the input,
// opening .ts locations).

import * as crypto from "crypto";
import * as vscode from "vscode";
import { buildPage, makeNonce } from "./page";
import { insidePlugin, parseInput, prefillInput, rememberKey, sampleFromSchema } from "./prefill";
import type { RunRecord } from "./record";
import { noticeText, renderFailure, renderRecord } from "./render";

export interface ToolTarget {
  /** The plugin's version directory (holds plugin.json). */
  dir: vscode.Uri;
  plugin: string;
  tool: string;
  description: string;
  inputJsonSchema: unknown;
  /** A native tool (its description and schema came from the server's plugin.nativeTool). */
  native?: boolean;
}

/** Runs the tool on the server; rejects on transport errors. */
export type RunFn = (target: ToolTarget, input: unknown, token: vscode.CancellationToken) => Promise<RunRecord>;

export class RunPanels {
  private readonly panels = new Map<string, RunPanel>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly run: RunFn,
  ) {}

  /**
   * Shows (or reveals) the panel of a tool. With `run`, runs it at once:
   * with `input` when given, else with the panel's input box (remembered or
   * prefilled from inputJsonSchema).
   *
   * A run (a ▶ lens, a server command) leaves the keyboard where it was:
   * the author clicked in the editor and goes on typing there. Only a panel
   * opened to edit its input (Run Tool… from the palette) takes the focus.
   * This also keeps VS Code's webview from taking the focus late: a focus
   * asked of a webview that is still loading is queued until it has loaded
   * (seconds on a busy machine) and then taken from whatever holds it, which
   * closes a Quick Open or a palette the author opened meanwhile.
   */
  show(target: ToolTarget, opts: { run?: boolean; input?: unknown } = {}): RunPanel {
    const key = `${target.dir.toString()}#${target.tool}`;
    const preserveFocus = opts.run === true;
    let panel = this.panels.get(key);
    if (!panel) {
      panel = new RunPanel(this.context, target, this.run, () => this.panels.delete(key), preserveFocus);
      this.panels.set(key, panel);
    } else {
      panel.reveal(preserveFocus);
    }
    if (opts.run) {
      void panel.runWith(opts.input === undefined ? panel.currentInput : JSON.stringify(opts.input, null, 2));
    }
    return panel;
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
  }
}

export class RunPanel {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private inputText: string;
  private resultHtml = "";
  private running?: vscode.CancellationTokenSource;
  private disposed = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly target: ToolTarget,
    private readonly run: RunFn,
    private readonly onDispose: () => void,
    preserveFocus: boolean,
  ) {
    const remembered = context.workspaceState.get<string>(rememberKey(target.dir.toString(), target.tool));
    this.inputText = prefillInput(target.inputJsonSchema, remembered);
    this.panel = vscode.window.createWebviewPanel(
      "pluginLsp.run",
      `Run ${target.tool}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        // Only the extension's own dist/ is loadable; nothing from the workspace or the network.
        localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, "dist")],
      },
    );
    this.panel.onDidDispose(() => this.dispose(), null, this.disposables);
    this.panel.webview.onDidReceiveMessage((msg) => this.onMessage(msg), null, this.disposables);
    this.render();
  }

  get currentInput(): string {
    return this.inputText;
  }

  reveal(preserveFocus: boolean): void {
    this.panel.reveal(undefined, preserveFocus);
  }

  private render(): void {
    const webview = this.panel.webview;
    const scriptUri = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, "dist", "webview.js"));
    webview.html = buildPage({
      cspSource: webview.cspSource,
      nonce: makeNonce((n) => new Uint8Array(crypto.randomBytes(n))),
      scriptUri: scriptUri.toString(),
      plugin: this.target.plugin,
      tool: this.target.tool,
      native: this.target.native,
      description: this.target.description,
      inputText: this.inputText,
      sampleText: JSON.stringify(sampleFromSchema(this.target.inputJsonSchema), null, 2) ?? "{}",
      resultHtml: this.resultHtml,
    });
  }

  private onMessage(msg: unknown): void {
    if (!msg || typeof msg !== "object") return;
    const m = msg as { type?: string; input?: unknown; file?: unknown; line?: unknown; column?: unknown };
    if (m.type === "run" && typeof m.input === "string") {
      void this.runWith(m.input);
    } else if (m.type === "open" && typeof m.file === "string") {
      void this.open(m.file, Number(m.line) || 1, Number(m.column) || 1);
    }
  }

  /** Runs the tool with the input text, remembering it for this tool. */
  async runWith(text: string): Promise<void> {
    if (this.disposed) return;
    const parsed = parseInput(text);
    if (!parsed.ok) {
      void this.panel.webview.postMessage({ type: "inputError", message: parsed.message });
      return;
    }
    this.inputText = text;
    await this.context.workspaceState.update(rememberKey(this.target.dir.toString(), this.target.tool), text);
    this.running?.cancel();
    const cts = new vscode.CancellationTokenSource();
    this.running = cts;
    void this.panel.webview.postMessage({ type: "running" });
    try {
      const record = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: this.target.native ? `Running ${this.target.tool} (full trust)` : `Running fn.${this.target.tool}` },
        () => this.run(this.target, parsed.value, cts.token),
      );
      this.resultHtml = renderRecord(record);
    } catch (e) {
      this.resultHtml = renderFailure(e instanceof Error ? e.message : String(e));
    } finally {
      if (this.running === cts) this.running = undefined;
      cts.dispose();
    }
    if (!this.disposed) void this.panel.webview.postMessage({ type: "result", html: this.resultHtml });
  }

  /** Opens a location reported by the run (plugin-relative, 1-based). */
  private async open(file: string, line: number, column: number): Promise<void> {
    const parts = insidePlugin(file);
    if (!parts) {
      void vscode.window.showWarningMessage(noticeText(`Not opening ${file}: it is not a file of the plugin.`));
      return;
    }
    const uri = vscode.Uri.joinPath(this.target.dir, ...parts);
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      const pos = new vscode.Position(Math.max(line - 1, 0), Math.max(column - 1, 0));
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(pos, pos) });
    } catch (e) {
      void vscode.window.showErrorMessage(noticeText(`Cannot open ${file}: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.running?.cancel();
    this.onDispose();
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
    this.panel.dispose();
  }
}
