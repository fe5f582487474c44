// The pin review view: pinning (the palette's "Pin Capability Snapshot",
// the quick fix "Re-pin the capability snapshot", any call of plugin.pin
// through VS Code's command registry) opens the server's review card in a
// webview, what changed since the pin first, and writes plugin.lock.json
// only when the author presses Pin in it.
//
// Why a command: link cannot pin. Server commands are editor commands too,
// so a command: link (in a hover, a notification, a Markdown preview) can
// run plugin.pin with any argument. The client's middleware therefore
// never forwards plugin.pin: it opens this view instead (extension.ts).
// The view asks the server for the card with {approve: true}, which comes
// with a one-time approval token that the server keeps for the newest card
// of that plugin; Pin sends {approval: token} straight to the server
// (client.sendRequest, not the command registry), so nothing reachable
// from a link carries it. The server pins only with that token, only once,
// and only while the files hash as they did when the card was built: what
// is written is what was on the card.

import * as crypto from "crypto";
import * as vscode from "vscode";
import { SERVER_COMMANDS } from "./commands";
import { makeNonce } from "./page";
import { noticeText } from "./render";
import { buildReviewPage, type ReviewCardReply } from "./reviewpage";

/** Sends one workspace/executeCommand to the server (not through the command registry). */
export type SendCommand = (command: string, args: unknown) => Promise<unknown>;

/** What a review ended with. */
export interface PinOutcome {
  pinned: boolean;
  file?: string;
  changes: string[];
}

export class PinReviews implements vscode.Disposable {
  private readonly views = new Map<string, PinReview>();

  constructor(
    private readonly send: SendCommand,
    private readonly log: (line: string) => void,
  ) {}

  /** Opens (or reveals and refreshes) the review of the plugin in dir; resolves when it is pinned, cancelled or closed. */
  async open(dir: vscode.Uri): Promise<PinOutcome> {
    const key = dir.toString();
    let view = this.views.get(key);
    if (view) {
      view.reveal();
    } else {
      view = new PinReview(dir, this.send, this.log, () => this.views.delete(key));
      this.views.set(key, view);
    }
    await view.load("");
    return view.outcome;
  }

  dispose(): void {
    for (const v of [...this.views.values()]) v.dispose();
  }
}

class PinReview {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private approval = "";
  private plugin = "plugin";
  private busy = false;
  private finish!: (o: PinOutcome) => void;
  readonly outcome: Promise<PinOutcome>;
  private done = false;

  constructor(
    private readonly dir: vscode.Uri,
    private readonly send: SendCommand,
    private readonly log: (line: string) => void,
    private readonly onDispose: () => void,
  ) {
    this.outcome = new Promise((resolve) => (this.finish = resolve));
    this.panel = vscode.window.createWebviewPanel(
      "pluginLsp.pinReview",
      "Pin capability snapshot",
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      // The page's one inline script is nonce'd; it loads nothing, from
      // anywhere: no local resource roots, no command: links.
      { enableScripts: true, enableCommandUris: false, localResourceRoots: [], retainContextWhenHidden: true },
    );
    this.panel.onDidDispose(() => this.dispose(), null, this.disposables);
    this.panel.webview.onDidReceiveMessage((m) => void this.onMessage(m), null, this.disposables);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** Asks the server for the card (and a fresh approval token) and renders it. */
  async load(notice: string): Promise<void> {
    let card: ReviewCardReply;
    try {
      card = ((await this.send(SERVER_COMMANDS.reviewCard, { dir: this.dir.toString(), approve: true })) ?? {}) as ReviewCardReply;
    } catch (e) {
      const msg = `Review card: ${e instanceof Error ? e.message : String(e)}`;
      this.log(msg);
      void vscode.window.showErrorMessage(noticeText(msg));
      this.end({ pinned: false, changes: [] });
      return;
    }
    this.approval = typeof card.approval === "string" ? card.approval : "";
    if (typeof card.plugin === "string" && card.plugin !== "") this.plugin = card.plugin;
    this.panel.title = `Pin ${this.plugin}`;
    // The card and the pin are of the files on disk: say so when an editor holds unsaved text of the plugin.
    const inside = this.dir.toString().replace(/\/?$/, "/");
    const unsaved = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.toString().startsWith(inside)).map((d) => vscode.workspace.asRelativePath(d.uri));
    if (unsaved.length > 0) {
      const files = `${unsaved.join(", ")} ${unsaved.length === 1 ? "has" : "have"} unsaved changes: this card, and the pin, are of the files on disk.`;
      notice = notice ? `${notice} ${files}` : files;
    }
    this.panel.webview.html = buildReviewPage({
      cspSource: this.panel.webview.cspSource,
      nonce: makeNonce((n) => new Uint8Array(crypto.randomBytes(n))),
      card,
      notice,
    });
  }

  private async onMessage(msg: unknown): Promise<void> {
    const type = msg && typeof msg === "object" ? (msg as { type?: unknown }).type : undefined;
    if (type === "cancel") {
      this.end({ pinned: false, changes: [] });
      return;
    }
    if (type !== "pin" || this.busy) return;
    if (this.approval === "") {
      void this.panel.webview.postMessage({ type: "failed", message: "The server gave this card no approval: update plugin-lsp." });
      return;
    }
    this.busy = true;
    const approval = this.approval;
    this.approval = ""; // one use, whatever the server answers
    try {
      const res = (await this.send(SERVER_COMMANDS.pin, { dir: this.dir.toString(), approval })) as Partial<PinOutcome> | undefined;
      const outcome: PinOutcome = { pinned: res?.pinned === true, file: typeof res?.file === "string" ? res.file : undefined, changes: Array.isArray(res?.changes) ? res!.changes! : [] };
      if (outcome.pinned) void vscode.window.setStatusBarMessage(noticeText(`Pinned ${this.plugin}: plugin.lock.json written`), 5000);
      this.end(outcome);
    } catch (e) {
      // The files changed since the card was built, or the token was
      // spent: show the card as it is now, with a new token.
      const why = e instanceof Error ? e.message : String(e);
      this.log(`pin: ${why}`);
      await this.load(`Not pinned: ${why}. This is the card of the plugin as it is now.`);
    } finally {
      this.busy = false;
    }
  }

  private end(o: PinOutcome): void {
    if (!this.done) {
      this.done = true;
      this.finish(o);
    }
    this.panel.dispose();
  }

  dispose(): void {
    if (!this.done) {
      this.done = true;
      this.finish({ pinned: false, changes: [] }); // closed: nothing written
    }
    this.onDispose();
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }
}
