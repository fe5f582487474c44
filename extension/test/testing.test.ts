// The Testing view's controller (src/testing.ts) driven through a recording
// fake of VS Code's testing API, its runs going to the real
// `plugin-lsp serve` (built from ../cmd/plugin-lsp) over
// vscode-languageserver-protocol, on a copy of the example plugin.

import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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
import type * as vscode from "vscode";
import { SERVER_COMMANDS } from "../src/commands";
import { PluginTests, type TestingApi, type TestResult, parseTestFile } from "../src/testing";
import { Uri } from "./fakevscode";
import { REPO_ROOT, buildServer } from "./util";

// ---------- a recording fake of the testing API ----------

class Position {
  constructor(readonly line: number, readonly character: number) {}
}
class Range {
  constructor(readonly start: Position, readonly end: Position) {}
}
class Location {
  constructor(readonly uri: unknown, readonly range: Range) {}
}
class TestMessage {
  expectedOutput?: string;
  actualOutput?: string;
  location?: Location;
  constructor(readonly message: string) {}
  static diff(message: string, expected: string, actual: string): TestMessage {
    const m = new TestMessage(message);
    m.expectedOutput = expected;
    m.actualOutput = actual;
    return m;
  }
}

class Items {
  private map = new Map<string, Item>();
  constructor(private parent?: Item) {}
  get size(): number {
    return this.map.size;
  }
  add(i: Item): void {
    i.parent = this.parent;
    this.map.set(i.id, i);
  }
  get(id: string): Item | undefined {
    return this.map.get(id);
  }
  delete(id: string): void {
    this.map.delete(id);
  }
  replace(items: Item[]): void {
    this.map.clear();
    for (const i of items) this.add(i);
  }
  forEach(f: (i: Item) => void): void {
    [...this.map.values()].forEach(f);
  }
}

class Item {
  parent?: Item;
  range?: Range;
  readonly children: Items = new Items(this);
  constructor(readonly id: string, readonly label: string, readonly uri: unknown) {}
}

type Event = [string, string, ...unknown[]];

class Run {
  events: Event[] = [];
  ended = false;
  started(i: Item): void {
    this.events.push(["started", i.label]);
  }
  passed(i: Item, ms?: number): void {
    this.events.push(["passed", i.label, ms]);
  }
  failed(i: Item, m: TestMessage | TestMessage[], ms?: number): void {
    this.events.push(["failed", i.label, [m].flat(), ms]);
  }
  errored(i: Item, m: TestMessage | TestMessage[]): void {
    this.events.push(["errored", i.label, [m].flat()]);
  }
  skipped(i: Item): void {
    this.events.push(["skipped", i.label]);
  }
  output: string[] = [];
  appendOutput(text: string): void {
    this.output.push(text);
  }
  end(): void {
    this.ended = true;
  }
}

class Controller {
  items = new Items();
  runs: Run[] = [];
  profiles: Array<{ label: string; kind: number; handler: (r: unknown, t: unknown) => Promise<void>; isDefault?: boolean }> = [];
  resolveHandler?: unknown;
  refreshHandler?: unknown;
  disposed = false;
  constructor(readonly id: string, readonly label: string) {}
  createTestItem(id: string, label: string, uri: unknown): Item {
    return new Item(id, label, uri);
  }
  createRunProfile(label: string, kind: number, handler: (r: unknown, t: unknown) => Promise<void>, isDefault?: boolean): void {
    this.profiles.push({ label, kind, handler, isDefault });
  }
  createTestRun(): Run {
    const r = new Run();
    this.runs.push(r);
    return r;
  }
  dispose(): void {
    this.disposed = true;
  }
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules") out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function fakeApi(root: string): { api: TestingApi; controller: () => Controller } {
  let controller: Controller | undefined;
  const noEvent = () => ({ dispose() {} });
  const api = {
    tests: {
      createTestController: (id: string, label: string) => (controller = new Controller(id, label)),
    },
    TestRunProfileKind: { Run: 1, Debug: 2, Coverage: 3 },
    TestMessage,
    Range,
    Position,
    Location,
    Uri,
    workspace: {
      findFiles: async () => walk(root).filter((p) => /[\\/]tests[\\/][^\\/]+\.json$/.test(p)).map((p) => Uri.file(p)),
      fs: { readFile: async (u: Uri) => new Uint8Array(readFileSync(u.fsPath)) },
      createFileSystemWatcher: () => ({ onDidCreate: noEvent, onDidChange: noEvent, onDidDelete: noEvent, dispose() {} }),
    },
  };
  return { api: api as unknown as TestingApi, controller: () => controller! };
}

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) } as unknown as vscode.CancellationToken;

// ---------- the tests ----------

describe("the Testing view against the real plugin-lsp serve", { timeout: 180_000 }, () => {
  let work: string;
  let plugin: string;
  let proc: ChildProcessWithoutNullStreams;
  let conn: ProtocolConnection;
  let stderr = "";

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "plugin-lsp-testing-"));
    const binary = buildServer(join(work, "bin", "plugin-lsp"));
    plugin = join(work, "books");
    cpSync(join(REPO_ROOT, "testdata", "example", "books"), plugin, { recursive: true });
    proc = spawn(binary, ["serve"], { cwd: work, stdio: "pipe" });
    proc.stderr.on("data", (d) => (stderr += d.toString()));
    conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    for (const m of ["window/workDoneProgress/create", "client/registerCapability", "workspace/codeLens/refresh", "workspace/inlayHint/refresh", "workspace/diagnostic/refresh"]) {
      conn.onRequest(m, () => null);
    }
    conn.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
    conn.listen();
    await conn.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(work).href, capabilities: {} });
    await conn.sendNotification("initialized", {});
  });

  after(() => {
    conn?.dispose();
    proc?.kill();
    rmSync(work, { recursive: true, force: true });
  });

  const runTests = async (args: unknown): Promise<TestResult[]> =>
    (await conn.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.runTests, arguments: [args] })) as TestResult[];

  it("parses the cases of a test file with the line of each name", () => {
    const text = readFileSync(join(REPO_ROOT, "testdata", "example", "books", "tests", "lookup-book.json"), "utf8");
    const cases = parseTestFile(text);
    assert.deepEqual(cases.map((c) => c.name), ["finds The Hobbit by ISBN", "ignores hyphens in the ISBN", "says which ISBN Open Library does not know", "a slow Open Library surfaces as a timeout"]);
    const lines = text.split("\n");
    for (const c of cases) assert.match(lines[c.line], new RegExp(`"name": "${c.name}"`));
    assert.deepEqual(parseTestFile("{ not json"), []);
    assert.deepEqual(parseTestFile(`{"cases": [{"name": "a"}, {"name": "a"}]}`).map((c) => c.line), [0, 0]);
  });

  it("discovers the example's tests, runs them all, and reports a failure with its diff", async () => {
    const { api, controller } = fakeApi(work);
    const tests = new PluginTests(api, (args) => runTests(args), async (dir) => existsSync(join(dir.fsPath, "plugin.json")));
    await tests.discover();
    const c = controller();
    assert.equal(c.id, "pluginLsp.tests");
    const files: string[] = [];
    c.items.forEach((f) => files.push(`${f.label}:${f.children.size}`));
    assert.deepEqual(files.sort(), ["tests/lookup-book.json:4", "tests/save-favourite.json:4", "tests/search-books.json:4", "tests/telegram.json:3"]);
    assert.deepEqual(c.profiles.map((p) => [p.label, p.kind, p.isDefault]), [["Run", 1, true]], "one run profile, no debug");

    // Everything: 12 cases pass; the 3 cases of the native tool are
    // listed and skipped (never passed), with the server's reason.
    await c.profiles[0].handler({ include: undefined, exclude: [] }, token);
    let run = c.runs.at(-1)!;
    assert.ok(run.ended);
    assert.equal(run.events.filter((e) => e[0] === "started").length, 15);
    assert.equal(run.events.filter((e) => e[0] === "passed").length, 12, JSON.stringify(run.events) + stderr);
    const skipped = run.events.filter((e) => e[0] === "skipped").map((e) => e[1]);
    assert.deepEqual(skipped.sort(), ["a message without text is an InputError", "reading a chat opens the same socket", "the MTProto socket is refused under fake providers"]);
    assert.equal(run.output.length, 3);
    // The server asked first (this client answers no question): not approved.
    assert.match(run.output[0], /skipped: .*tg\.(sendMessage|readChat) is a native tool \(native\/telegram\.js\): running it with full authority on this machine was not approved/);

    // The author breaks an expectation; only that case is re-run from the gutter.
    const file = join(plugin, "tests", "lookup-book.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"value": "The Hobbit", "label"', '"value": "The Hobit", "label"'));
    const item = c.items.get(Uri.file(file).toString())!;
    let first: Item | undefined;
    item.children.forEach((i) => (first ??= i));
    assert.equal(first!.label, "finds The Hobbit by ISBN");
    assert.equal(first!.range!.start.line, 5);
    await c.profiles[0].handler({ include: [first], exclude: [] }, token);
    run = c.runs.at(-1)!;
    assert.deepEqual(run.events.map((e) => e.slice(0, 2)), [["started", "finds The Hobbit by ISBN"], ["failed", "finds The Hobbit by ISBN"]]);
    const messages = run.events[1][2] as TestMessage[];
    assert.equal(messages.length, 1);
    assert.equal(messages[0].message, "result.value: differs");
    assert.equal(messages[0].expectedOutput, '"The Hobit"');
    assert.equal(messages[0].actualOutput, '"The Hobbit"');
    assert.equal(messages[0].location?.range.start.line, 5);

    // A whole file, one case excluded.
    let second: Item | undefined;
    item.children.forEach((i) => {
      if (i !== first && !second) second = i;
    });
    await c.profiles[0].handler({ include: [item], exclude: [second] }, token);
    run = c.runs.at(-1)!;
    assert.equal(run.events.filter((e) => e[0] === "started").length, 3);
    assert.ok(!run.events.some((e) => e[1] === second!.label));
    assert.equal(run.events.filter((e) => e[0] === "failed").length, 1);
    tests.dispose();
    assert.ok(c.disposed);
  });
});
