// Rough figures for the report: renderer speed, and plugin.runTool latency
// through the real server as the client calls it. Run after `npm test`
// (needs out/ and a plugin-lsp binary: PLUGIN_LSP_BIN or bin/linux-x64).
// Prints the median of 5 rounds for each figure.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { renderRecord } = require(join(root, "out", "src", "render.js"));
const rpc = require("vscode-languageserver-protocol/node");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};

const record = JSON.parse(readFileSync(join(root, "test", "fixtures", "search-books.record.json"), "utf8"));
const rounds = (n, fn) => Array.from({ length: 5 }, () => time(() => { for (let i = 0; i < n; i++) fn(); }) / n);
console.log(`renderRecord(searchBooks record): median ${median(rounds(2000, () => renderRecord(record))).toFixed(4)} ms`);
const big = { ok: true, result: null, logs: [{ level: "log", message: "a.b.ts:1 ".repeat(116508) }], fetches: [] };
console.log(`renderRecord(1 MiB log line):    median ${median(rounds(3, () => renderRecord(big))).toFixed(1)} ms`);

const bin = process.env.PLUGIN_LSP_BIN ?? join(root, "bin", "linux-x64", "plugin-lsp");
const books = join(root, "..", "testdata", "example", "books");
const proc = spawn(bin, ["serve"], { stdio: "pipe" });
const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
conn.onRequest("workspace/configuration", (p) => p.items.map(() => ({})));
conn.onRequest("window/workDoneProgress/create", () => null);
conn.onRequest("client/registerCapability", () => null);
conn.onRequest("workspace/codeLens/refresh", () => null);
conn.onRequest("workspace/inlayHint/refresh", () => null);
conn.onNotification("textDocument/publishDiagnostics", () => undefined);
conn.listen();
let t = process.hrtime.bigint();
await conn.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(books).toString(), capabilities: {} });
console.log(`spawn + initialize:               ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(1)} ms`);
await conn.sendNotification("initialized", {});
const run = async () => {
  const t0 = process.hrtime.bigint();
  const r = await conn.sendRequest("workspace/executeCommand", { command: "plugin.runTool", arguments: [{ dir: pathToFileURL(books).toString(), tool: "lookupBook", input: { isbn: "9780261103344" } }] });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
console.log(`first plugin.runTool (engine prep): ${(await run()).toFixed(1)} ms`);
const runs = [];
for (let i = 0; i < 5; i++) runs.push(await run());
console.log(`plugin.runTool lookupBook:        median ${median(runs).toFixed(1)} ms (${runs.map((x) => x.toFixed(1)).join(", ")})`);
await conn.sendRequest("shutdown");
await conn.sendNotification("exit");
conn.dispose();
