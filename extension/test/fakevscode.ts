// A fake of the `vscode` module, just deep enough to load the real bundled
// client (dist/extension.js, vscode-languageclient included), let it start
// the real server, and observe what it does: registered commands and
// providers, webview panels and their messages, documents opened, messages
// shown. Members nobody implemented here are harmless stand-ins (a register*
// returns a Disposable, an on* event never fires) and are listed in
// `unknown` so a test can see what was touched.

import * as nodePath from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

type Listener<T> = (e: T) => unknown;

export class Disposable {
  constructor(private fn: () => void = () => undefined) {}
  static from(...ds: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => ds.forEach((d) => d.dispose()));
  }
  dispose(): void {
    const f = this.fn;
    this.fn = () => undefined;
    f();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  event = (l: Listener<T>, thisArg?: unknown, disposables?: Disposable[]): Disposable => {
    const bound: Listener<T> = (e) => l.call(thisArg, e);
    this.listeners.add(bound);
    const d = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = "",
    readonly fragment = "",
  ) {}
  static file(p: string): Uri {
    return new Uri("file", "", nodePath.posix.normalize(p));
  }
  static parse(s: string): Uri {
    if (s.startsWith("file:")) return Uri.file(fileURLToPath(s));
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/([^/]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(s);
    if (!m) throw new Error(`bad uri ${s}`);
    return new Uri(m[1], m[2] ?? "", m[3] ?? "", m[4] ?? "", m[5] ?? "");
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, base.authority, nodePath.posix.join(base.path, ...parts), base.query, base.fragment);
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? "", c.path ?? "", c.query ?? "", c.fragment ?? "");
  }
  get fsPath(): string {
    return this.path;
  }
  with(c: Partial<{ scheme: string; authority: string; path: string; query: string; fragment: string }>): Uri {
    return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment);
  }
  toString(): string {
    if (this.scheme === "file") return pathToFileURL(this.path).toString();
    return `${this.scheme}:${this.authority ? `//${this.authority}` : ""}${this.path}${this.query ? `?${this.query}` : ""}${this.fragment ? `#${this.fragment}` : ""}`;
  }
  toJSON(): unknown {
    return { $mid: 1, scheme: this.scheme, path: this.path, external: this.toString() };
  }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    if (typeof a === "number") {
      this.start = new Position(a, b as number);
      this.end = new Position(c!, d!);
    } else {
      this.start = a;
      this.end = b as Position;
    }
  }
  get isEmpty(): boolean {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

export class Selection extends Range {}

export class TabInputText {
  constructor(readonly uri: Uri) {}
}

export class CancellationError extends Error {
  constructor() {
    super("Canceled");
    this.name = "Canceled";
  }
}

export class CancellationTokenSource {
  private emitter = new EventEmitter<void>();
  token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this.emitter.fire();
    }
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

/** A plain data class: keeps its constructor arguments and any assigned fields. */
function dataClass(name: string, fields: string[]): unknown {
  const C = class {
    constructor(...args: unknown[]) {
      fields.forEach((f, i) => ((this as Record<string, unknown>)[f] = args[i]));
    }
  };
  Object.defineProperty(C, "name", { value: name });
  return C;
}

class CodeActionKind {
  static Empty = new CodeActionKind("");
  static QuickFix = new CodeActionKind("quickfix");
  static Refactor = new CodeActionKind("refactor");
  static RefactorExtract = new CodeActionKind("refactor.extract");
  static RefactorInline = new CodeActionKind("refactor.inline");
  static RefactorRewrite = new CodeActionKind("refactor.rewrite");
  static Source = new CodeActionKind("source");
  static SourceOrganizeImports = new CodeActionKind("source.organizeImports");
  static SourceFixAll = new CodeActionKind("source.fixAll");
  constructor(readonly value: string) {}
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other: CodeActionKind): boolean {
    return this.value === "" || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other: CodeActionKind): boolean {
    return this.contains(other) || other.contains(this);
  }
}

export interface FakeDocument {
  uri: Uri;
  fileName: string;
  languageId: string;
  version: number;
  isClosed: boolean;
  isDirty: boolean;
  isUntitled: boolean;
  lineCount: number;
  eol: number;
  getText(): string;
  positionAt(offset: number): Position;
  offsetAt(p: Position): number;
  lineAt(line: number): { text: string };
  save(): Promise<boolean>;
}

export function fakeDocument(uri: Uri, languageId: string, text: string): FakeDocument {
  const lines = text.split("\n");
  return {
    uri,
    fileName: uri.fsPath,
    languageId,
    version: 1,
    isClosed: false,
    isDirty: false,
    isUntitled: uri.scheme === "untitled",
    lineCount: lines.length,
    eol: 1,
    getText: () => text,
    positionAt(offset: number) {
      const before = text.slice(0, offset).split("\n");
      return new Position(before.length - 1, before[before.length - 1].length);
    },
    offsetAt(p: Position) {
      let off = 0;
      for (let i = 0; i < p.line && i < lines.length; i++) off += lines[i].length + 1;
      return off + p.character;
    },
    lineAt: (line: number) => ({ text: lines[line] ?? "" }),
    save: async () => true,
  };
}

export interface FakePanel {
  viewType: string;
  title: string;
  htmls: string[];
  posted: unknown[];
  disposed: boolean;
  /** preserveFocus of createWebviewPanel, then of each reveal. */
  preserveFocus: boolean[];
  /** Sends a message as the page's script would. */
  receive(msg: unknown): void;
  dispose(): void;
}

function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      re += ".*";
      i++;
      if (glob[i + 1] === "/") i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "{") re += "(?:";
    else if (c === "}") re += ")";
    else if (c === ",") re += "|";
    else re += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^(?:.*/)?${re}$`);
}

export interface FakeOptions {
  workspaceFolder: string;
  settings: Record<string, unknown>; // keys under "pluginLsp"
  files: string[]; // what findFiles("**/plugin.json") returns (absolute paths)
  documents: FakeDocument[]; // open documents
  quickPick?: (items: Array<{ label: string }>) => unknown;
}

/** Builds the fake module and the record of what the extension did with it. */
export function createFakeVscode(opts: FakeOptions) {
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const executed: Array<{ command: string; args: unknown[] }> = [];
  const providers = new Map<string, unknown[]>();
  const panels: FakePanel[] = [];
  const messages: Array<{ kind: string; text: string }> = [];
  const output: string[] = [];
  const opened: Array<{ uri?: string; language?: string; content?: string }> = [];
  const contentProviders = new Map<string, { provideTextDocumentContent(u: Uri): string }>();
  const shown: Array<{ uri: string; selection?: Range }> = [];
  const unknown = new Set<string>();
  const configEmitter = new EventEmitter<{ affectsConfiguration(s: string): boolean }>();
  const openEmitter = new EventEmitter<FakeDocument>();

  const events = (prefix: string, known: Record<string, unknown>) =>
    new Proxy(known, {
      get(target, prop: string) {
        if (prop in target) return target[prop];
        if (typeof prop !== "string") return undefined;
        unknown.add(`${prefix}.${prop}`);
        if (prop.startsWith("on")) return () => new Disposable();
        if (prop.startsWith("register")) {
          return (...args: unknown[]) => {
            providers.set(prop, [...(providers.get(prop) ?? []), args]);
            return new Disposable();
          };
        }
        return undefined;
      },
    });

  const configuration = (section?: string) => {
    const all: Record<string, unknown> = { pluginLsp: { ...opts.settings } };
    const root = section === "pluginLsp" ? (all.pluginLsp as Record<string, unknown>) : section ? {} : all;
    return {
      get: (key: string, def?: unknown) => (key in root ? root[key] : def),
      has: (key: string) => key in root,
      inspect: () => undefined,
      update: async () => undefined,
    };
  };

  const workspaceFolderUri = Uri.file(opts.workspaceFolder);
  const workspace = events("workspace", {
    workspaceFolders: [{ uri: workspaceFolderUri, name: nodePath.basename(opts.workspaceFolder), index: 0 }],
    get textDocuments() {
      return opts.documents;
    },
    notebookDocuments: [],
    getConfiguration: configuration,
    getWorkspaceFolder: () => ({ uri: workspaceFolderUri, name: "ws", index: 0 }),
    findFiles: async (glob: string) => {
      const re = globToRegExp(glob);
      return opts.files.filter((f) => re.test(f)).map((f) => Uri.file(f));
    },
    asRelativePath: (u: Uri | string) => nodePath.relative(opts.workspaceFolder, typeof u === "string" ? u : u.fsPath),
    createFileSystemWatcher: () => ({
      onDidCreate: () => new Disposable(),
      onDidChange: () => new Disposable(),
      onDidDelete: () => new Disposable(),
      dispose: () => undefined,
    }),
    onDidChangeConfiguration: configEmitter.event,
    onDidOpenTextDocument: openEmitter.event,
    fs: {
      stat: async (u: Uri) => {
        const fs = await import("node:fs");
        const st = fs.statSync(u.fsPath); // throws when missing, as vscode does
        return { type: st.isDirectory() ? 2 : 1, size: st.size, ctime: 0, mtime: 0 };
      },
      readFile: async (u: Uri) => {
        const fs = await import("node:fs");
        return new Uint8Array(fs.readFileSync(u.fsPath));
      },
    },
    openTextDocument: async (arg: Uri | { language?: string; content?: string }) => {
      if (arg instanceof Uri) {
        const fs = await import("node:fs");
        opened.push({ uri: arg.toString() });
        return fakeDocument(arg, "typescript", fs.readFileSync(arg.fsPath, "utf8"));
      }
      opened.push({ language: arg.language, content: arg.content });
      return fakeDocument(Uri.parse(`untitled:Untitled-${opened.length}`), arg.language ?? "plaintext", arg.content ?? "");
    },
    applyEdit: async () => true,
    registerTextDocumentContentProvider: (scheme: string, provider: { provideTextDocumentContent(u: Uri): string }) => {
      contentProviders.set(scheme, provider);
      return new Disposable(() => contentProviders.delete(scheme));
    },
  });

  const window = events("window", {
    activeTextEditor: undefined,
    visibleTextEditors: [],
    get tabGroups() {
      return { all: [{ tabs: opts.documents.map((d) => ({ input: new TabInputText(d.uri), label: d.fileName })) }], onDidChangeTabs: () => new Disposable(), onDidChangeTabGroups: () => new Disposable() };
    },
    onDidChangeActiveTextEditor: () => new Disposable(),
    createOutputChannel: (name: string) => ({
      name,
      append: (s: string) => output.push(s),
      appendLine: (s: string) => output.push(s),
      replace: () => undefined,
      clear: () => undefined,
      show: () => undefined,
      hide: () => undefined,
      dispose: () => undefined,
    }),
    showErrorMessage: async (text: string) => void messages.push({ kind: "error", text }),
    showWarningMessage: async (text: string) => void messages.push({ kind: "warning", text }),
    showInformationMessage: async (text: string) => void messages.push({ kind: "info", text }),
    setStatusBarMessage: (text: string) => {
      messages.push({ kind: "status", text });
      return new Disposable();
    },
    withProgress: async (_o: unknown, task: (p: { report(v: unknown): void }, t: unknown) => unknown) =>
      task({ report: () => undefined }, new CancellationTokenSource().token),
    showQuickPick: async (items: Array<{ label: string }>) => (opts.quickPick ? opts.quickPick(await items) : undefined),
    showTextDocument: async (doc: FakeDocument, o?: { selection?: Range }) => {
      shown.push({ uri: doc.uri.toString(), selection: o?.selection });
      return { document: doc };
    },
    createWebviewPanel: (viewType: string, title: string, show: { preserveFocus?: boolean }) => {
      const receive = new EventEmitter<unknown>();
      const disposeEmitter = new EventEmitter<void>();
      const p: FakePanel & { webview: unknown } = {
        viewType,
        title,
        htmls: [],
        posted: [],
        disposed: false,
        preserveFocus: [show.preserveFocus === true],
        receive: (msg) => receive.fire(msg),
        dispose: () => {
          if (!p.disposed) {
            p.disposed = true;
            disposeEmitter.fire();
          }
        },
        webview: {
          cspSource: "https://fake.vscode-cdn.net",
          set html(h: string) {
            p.htmls.push(h);
          },
          get html() {
            return p.htmls[p.htmls.length - 1] ?? "";
          },
          asWebviewUri: (u: Uri) => Uri.parse(`https://fake.vscode-cdn.net${u.path}`),
          postMessage: async (m: unknown) => {
            p.posted.push(m);
            return true;
          },
          onDidReceiveMessage: receive.event,
        },
      };
      Object.assign(p, { onDidDispose: disposeEmitter.event, reveal: (_column?: unknown, preserveFocus?: boolean) => void p.preserveFocus.push(preserveFocus === true) });
      panels.push(p);
      return p;
    },
  });

  const vscode = {
    version: "1.90.0",
    env: { appName: "fake", language: "en", machineId: "m", sessionId: "s", uriScheme: "vscode", openExternal: async () => true },
    Uri,
    Disposable,
    EventEmitter,
    Position,
    Range,
    Selection,
    CancellationError,
    CancellationTokenSource,
    CodeActionKind,
    Location: dataClass("Location", ["uri", "range"]),
    Diagnostic: dataClass("Diagnostic", ["range", "message", "severity"]),
    DiagnosticRelatedInformation: dataClass("DiagnosticRelatedInformation", ["location", "message"]),
    CodeLens: dataClass("CodeLens", ["range", "command"]),
    CodeAction: dataClass("CodeAction", ["title", "kind"]),
    Hover: dataClass("Hover", ["contents", "range"]),
    MarkdownString: dataClass("MarkdownString", ["value", "supportThemeIcons"]),
    TextEdit: dataClass("TextEdit", ["range", "newText"]),
    WorkspaceEdit: dataClass("WorkspaceEdit", []),
    InlayHint: dataClass("InlayHint", ["position", "label", "kind"]),
    InlayHintLabelPart: dataClass("InlayHintLabelPart", ["value"]),
    RelativePattern: dataClass("RelativePattern", ["base", "pattern"]),
    SnippetString: dataClass("SnippetString", ["value"]),
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
    CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    NotebookCellKind: { Markup: 1, Code: 2 },
    TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
    InlayHintKind: { Type: 1, Parameter: 2 },
    TabInputText,
    TabInputTextDiff: class {},
    TabInputCustom: class {},
    workspace,
    window,
    languages: events("languages", {
      match: (selector: unknown, doc: FakeDocument) => {
        const sels = Array.isArray(selector) ? selector : [selector];
        for (const s of sels) {
          if (typeof s === "string") {
            if (s === doc.languageId) return 10;
            continue;
          }
          const f = s as { scheme?: string; language?: string; pattern?: string };
          if (f.scheme && f.scheme !== doc.uri.scheme) continue;
          if (f.language && f.language !== doc.languageId) continue;
          if (f.pattern && !globToRegExp(f.pattern).test(doc.uri.path)) continue;
          return 5;
        }
        return 0;
      },
      createDiagnosticCollection: (name: string) => {
        const map = new Map<string, unknown[]>();
        providers.set("diagnostics", [map]);
        return {
          name,
          set: (uri: Uri | Array<[Uri, unknown[]]>, diags?: unknown[]) => {
            if (Array.isArray(uri)) for (const [u, d] of uri) map.set(u.toString(), d);
            else map.set(uri.toString(), diags ?? []);
          },
          delete: (uri: Uri) => map.delete(uri.toString()),
          clear: () => map.clear(),
          get: (uri: Uri) => map.get(uri.toString()),
          has: (uri: Uri) => map.has(uri.toString()),
          forEach: (cb: (u: Uri, d: unknown[]) => void) => map.forEach((d, u) => cb(Uri.parse(u), d)),
          dispose: () => map.clear(),
        };
      },
    }),
    commands: {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        if (commands.has(id)) throw new Error(`command '${id}' already exists`);
        commands.set(id, fn);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        executed.push({ command: id, args });
        const fn = commands.get(id);
        return fn ? fn(...args) : undefined;
      },
      getCommands: async () => [...commands.keys()],
    },
    extensions: { all: [], getExtension: () => undefined, onDidChange: () => new Disposable() },
  };

  // Unknown classes and enums (CompletionItem, SymbolKind, …) become plain
  // data classes, so modules that subclass them at load time work.
  const stand = new Map<string, unknown>();
  const vscodeModule = new Proxy(vscode as Record<string, unknown>, {
    get(target, prop) {
      if (prop in target) return target[prop as string];
      if (typeof prop !== "string" || !/^[A-Z]/.test(prop)) return undefined;
      unknown.add(prop);
      if (!stand.has(prop)) stand.set(prop, dataClass(prop, []));
      return stand.get(prop);
    },
  }) as typeof vscode;

  return {
    vscode: vscodeModule,
    commands,
    executed,
    providers,
    panels,
    messages,
    output,
    opened,
    contentProviders,
    shown,
    unknown,
    /** Changes settings and tells the extension, as VS Code does. */
    changeSettings(next: Record<string, unknown>): void {
      opts.settings = next;
      configEmitter.fire({ affectsConfiguration: (s: string) => s === "pluginLsp" || Object.keys(next).some((k) => s === `pluginLsp.${k}`) });
    },
    openDocument(doc: FakeDocument): void {
      opts.documents.push(doc);
      openEmitter.fire(doc);
    },
  };
}
