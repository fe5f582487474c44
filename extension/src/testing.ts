// The Testing view: every case of every plugin's tests/*.json becomes a test
// item (file → cases), run through the server's plugin.runTests in the real
// sandbox with fake providers. A failure carries VS Code's expected/actual
// diff for each difference the server found. Run only (no debug profile):
// a re-run is one click in the view or in the gutter.
//
// The module takes the `vscode` API as an argument (extension.ts passes the
// real one; the tests pass a recording fake) and imports only its types.

import type * as vscode from "vscode";
import { visible } from "./render";

/** What plugin.runTests takes: a test file (and one case), or a plugin dir. */
export interface RunTestsArgs {
  uri?: string;
  dir?: string;
  name?: string;
}

/** One result of plugin.runTests (`plugin-lsp test --format json`). */
export interface TestResult {
  file: string;
  line: number;
  tool: string;
  name: string;
  /** "skip": the case did not run (a native tool's case without trust), for the reason in skipped. */
  status: "pass" | "fail" | "error" | "skip";
  skipped?: string;
  failures?: Array<{ path: string; message: string; expected?: string; actual?: string }>;
  durationMs: number;
}

export type RunTests = (args: RunTestsArgs, token: vscode.CancellationToken) => Promise<TestResult[]>;

/** The parts of the `vscode` API this module uses. */
export type TestingApi = Pick<typeof vscode, "tests" | "TestRunProfileKind" | "TestMessage" | "Range" | "Position" | "Location" | "Uri" | "workspace">;

export const CONTROLLER_ID = "pluginLsp.tests";
export const TEST_GLOB = "**/tests/*.json";

/** A case as the file declares it: its name and the 0-based line of "name". */
export interface DeclaredCase {
  name: string;
  line: number;
}

/**
 * The cases of a test file, in order, each with the line of its "name" key.
 * A file that does not parse, or is not a test file, has none.
 */
export function parseTestFile(text: string): DeclaredCase[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const cases = (doc as { cases?: unknown }).cases;
  if (!Array.isArray(cases)) return [];
  const out: DeclaredCase[] = [];
  let from = 0;
  for (const c of cases) {
    const name = (c as { name?: unknown })?.name;
    if (typeof name !== "string" || name === "") continue;
    // The next "name": "<name>" after the previous case, as JSON writes it.
    const re = new RegExp(`"name"\\s*:\\s*${escapeRegExp(JSON.stringify(name))}`, "g");
    re.lastIndex = from;
    const m = re.exec(text);
    const at = m ? m.index : from;
    if (m) from = m.index + m[0].length;
    out.push({ name, line: text.slice(0, at).split("\n").length - 1 });
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Is this a tests/*.json directly under a plugin directory? */
export function isTestFilePath(p: string): boolean {
  return /[\\/]tests[\\/][^\\/]+\.json$/.test(p);
}

/** The Testing view's controller for plugin tool tests. */
export class PluginTests {
  readonly controller: vscode.TestController;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly api: TestingApi,
    private readonly runTests: RunTests,
    private readonly hasPluginJson: (dir: vscode.Uri) => Promise<boolean>,
  ) {
    this.controller = api.tests.createTestController(CONTROLLER_ID, "Plugin tool tests");
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile("Run", api.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    const watcher = api.workspace.createFileSystemWatcher(TEST_GLOB);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((u) => void this.update(u)),
      watcher.onDidChange((u) => void this.update(u)),
      watcher.onDidDelete((u) => this.controller.items.delete(u.toString())),
    );
  }

  /** Finds every test file of every plugin in the workspace. */
  async discover(): Promise<void> {
    const files = await this.api.workspace.findFiles(TEST_GLOB, "**/node_modules/**");
    const keep = new Set<string>();
    for (const u of files) {
      if (await this.update(u)) keep.add(u.toString());
    }
    this.controller.items.forEach((item) => {
      if (!keep.has(item.id)) this.controller.items.delete(item.id);
    });
  }

  /** (Re)reads one test file into its item and case children. */
  async update(uri: vscode.Uri): Promise<vscode.TestItem | undefined> {
    if (!isTestFilePath(uri.fsPath)) return undefined;
    const pluginDir = this.api.Uri.joinPath(uri, "..", "..");
    if (!(await this.hasPluginJson(pluginDir))) return undefined;
    let text: string;
    try {
      text = new TextDecoder().decode(await this.api.workspace.fs.readFile(uri));
    } catch {
      this.controller.items.delete(uri.toString());
      return undefined;
    }
    const id = uri.toString();
    const label = uri.path.split("/").slice(-2).join("/");
    let file = this.controller.items.get(id);
    if (!file) {
      file = this.controller.createTestItem(id, label, uri);
      this.controller.items.add(file);
    }
    const children: vscode.TestItem[] = [];
    for (const c of parseTestFile(text)) {
      const child = this.controller.createTestItem(`${id}#${c.name}`, c.name, uri);
      child.range = new this.api.Range(new this.api.Position(c.line, 0), new this.api.Position(c.line, 0));
      children.push(child);
    }
    file.children.replace(children);
    return file;
  }

  /** Runs what the request includes (everything when it names nothing). */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    // Group the cases to run by file: a whole file is one server call.
    const jobs = new Map<string, { file: vscode.TestItem; cases: vscode.TestItem[]; whole: boolean }>();
    const addFile = (file: vscode.TestItem, whole: boolean, only?: vscode.TestItem) => {
      let job = jobs.get(file.id);
      if (!job) {
        job = { file, cases: [], whole: false };
        jobs.set(file.id, job);
      }
      if (whole) {
        job.whole = true;
        job.cases = [];
        file.children.forEach((c) => {
          if (!excluded.has(c.id)) job!.cases.push(c);
        });
      } else if (only && !job.whole && !job.cases.includes(only)) {
        job.cases.push(only);
      }
    };
    const include = request.include ?? collect(this.controller.items);
    for (const item of include) {
      if (excluded.has(item.id)) continue;
      if (item.parent) addFile(item.parent, false, item);
      else if (excluded.size === 0) addFile(item, true);
      else item.children.forEach((c) => excluded.has(c.id) || addFile(item, false, c));
    }
    try {
      for (const job of jobs.values()) {
        if (token.isCancellationRequested) break;
        for (const c of job.cases) run.started(c);
        const uri = job.file.uri!.toString();
        let results: TestResult[] = [];
        try {
          if (job.whole) {
            results = await this.runTests({ uri }, token);
          } else {
            for (const c of job.cases) results.push(...(await this.runTests({ uri, name: c.label }, token)));
          }
        } catch (e) {
          const msg = new this.api.TestMessage(visible(e instanceof Error ? e.message : String(e), true));
          for (const c of job.cases) run.errored(c, msg);
          continue;
        }
        this.report(run, job.file, job.cases, results);
      }
    } finally {
      run.end();
    }
  }

  private report(run: vscode.TestRun, file: vscode.TestItem, cases: vscode.TestItem[], results: TestResult[]): void {
    const byName = new Map(results.filter((r) => r.name !== "(file)").map((r) => [r.name, r]));
    const fileErrors = results.filter((r) => r.name === "(file)");
    for (const c of cases) {
      const r = byName.get(c.label);
      if (!r) {
        const text = fileErrors.length > 0 ? fileErrors.map((e) => e.failures?.map((f) => `${f.path}: ${f.message}`).join("\n")).join("\n") : "the server did not run this case (was the file saved?)";
        run.errored(c, new this.api.TestMessage(visible(text, true)));
        continue;
      }
      if (r.status === "pass") {
        run.passed(c, r.durationMs);
        continue;
      }
      if (r.status === "skip") {
        // Never a pass: the case did not run (a native tool's case whose
        // run with full authority the user did not approve).
        run.skipped(c);
        if (typeof r.skipped === "string" && r.skipped !== "") {
          run.appendOutput(visible(`${c.label}: skipped: ${r.skipped}`, true).replace(/\n/g, "\r\n") + "\r\n", undefined, c);
        }
        continue;
      }
      const messages = (r.failures ?? []).map((f) => {
        // The messages quote the plugin and the run: controls shown.
        const text = visible(`${f.path}: ${f.message}`, true);
        const m =
          f.expected !== undefined && f.actual !== undefined
            ? this.api.TestMessage.diff(text, visible(pretty(f.expected), true), visible(pretty(f.actual), true))
            : new this.api.TestMessage(visible(f.expected !== undefined ? `${text}\nexpected: ${f.expected}` : f.actual !== undefined ? `${text}\nactual: ${f.actual}` : text, true));
        if (file.uri && c.range) m.location = new this.api.Location(file.uri, c.range);
        return m;
      });
      if (r.status === "error") run.errored(c, messages, r.durationMs);
      else run.failed(c, messages, r.durationMs);
    }
  }

  dispose(): void {
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
    this.controller.dispose();
  }
}

function collect(items: vscode.TestItemCollection): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  items.forEach((i) => out.push(i));
  return out;
}

/** Indents a JSON text for the diff view (left as it is when not JSON). */
function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}
