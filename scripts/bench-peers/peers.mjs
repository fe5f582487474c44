// The peers of scripts/bench-peers.sh: the same small tool as our runner's
// lookupBook (parse the input, one canned fetch resolved asynchronously by
// the host, one log line, a JSON result) run in a fresh sandbox per call.
//
//   node peers.mjs MODE CALLS
//   MODE: qjs-runtime   quickjs-emscripten, a new QuickJS runtime + context per call (one wasm instance)
//         qjs-instance  quickjs-emscripten, a new wasm instance per call of the module compiled once (and a runtime in it)
//         node-vm       Node's vm.createContext per call
//
// CALLS 0: one call and exit (the first run in a new process; nothing printed).
// Otherwise prints one JSON line: per-call wall times (µs) of paced calls (a 5 ms
// pause before each) and of back-to-back calls, and the process's CPU time
// per back-to-back call.
import vm from "node:vm";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { getQuickJS, newQuickJSWASMModule, newVariant, RELEASE_SYNC } from "quickjs-emscripten";

const [mode, callsArg] = process.argv.slice(2);
const calls = Number(callsArg || 200);

const canned = {
  "https://api.openlibrary.org/isbn/9780261103344.json": { status: 200, body: JSON.stringify({ title: "The Hobbit", number_of_pages: 310 }) },
};
const input = { isbn: "978-0261103344" };

const toolSource = readFileSync(new URL("./ours/tool.js", import.meta.url), "utf8");

// In QuickJS the host hands back {status, body} as JSON; this glue makes the
// response object (as our prelude does).
const qjsGlue = `
globalThis.http = { fetch: (url) => __fetch(String(url)).then((s) => {
  const r = JSON.parse(s);
  return { status: r.status, ok: r.status >= 200 && r.status < 300, json: () => Promise.resolve(JSON.parse(r.body)), text: () => Promise.resolve(r.body) };
}) };
globalThis.console = { log: (...a) => __log(a.map(String).join(" ")) };
` + toolSource + `
globalThis.__run = (s) => lookupBook(JSON.parse(s)).then((v) => JSON.stringify(v));`;

function checkResult(s, logs) {
  if (s !== '{"type":"stat","value":"The Hobbit","label":"Title"}' || logs.length !== 1) {
    throw new Error("wrong result: " + s + " " + JSON.stringify(logs));
  }
}

async function qjsCall(mod) {
  const rt = mod.newRuntime();
  rt.setMemoryLimit(128 << 20);
  const ctx = rt.newContext();
  const logs = [];
  try {
    const logFn = ctx.newFunction("__log", (h) => { logs.push(ctx.getString(h)); });
    ctx.setProp(ctx.global, "__log", logFn);
    logFn.dispose();
    const fetchFn = ctx.newFunction("__fetch", (h) => {
      const url = ctx.getString(h);
      const d = ctx.newPromise();
      setImmediate(() => {
        const r = canned[url] || { status: 404, body: "" };
        const s = ctx.newString(JSON.stringify(r));
        d.resolve(s);
        s.dispose();
        d.dispose();
        rt.executePendingJobs();
      });
      return d.handle;
    });
    ctx.setProp(ctx.global, "__fetch", fetchFn);
    fetchFn.dispose();
    ctx.unwrapResult(ctx.evalCode(qjsGlue, "page.js")).dispose();
    const p = ctx.unwrapResult(ctx.evalCode("__run(" + JSON.stringify(JSON.stringify(input)) + ")"));
    const settled = ctx.resolvePromise(p);
    p.dispose();
    rt.executePendingJobs();
    const r = ctx.unwrapResult(await settled);
    const s = ctx.getString(r);
    r.dispose();
    checkResult(s, logs);
  } finally {
    ctx.dispose();
    rt.dispose();
  }
}

async function nodeVmCall() {
  const logs = [];
  const sandbox = {
    http: {
      fetch: (url) => new Promise((resolve) => setImmediate(() => {
        const r = canned[String(url)] || { status: 404, body: "" };
        resolve({ status: r.status, ok: r.status >= 200 && r.status < 300, json: async () => JSON.parse(r.body), text: async () => r.body });
      })),
    },
    console: { log: (...a) => logs.push(a.map(String).join(" ")) },
  };
  const context = vm.createContext(sandbox);
  vm.runInContext(toolSource + "\nglobalThis.__run = (s) => lookupBook(JSON.parse(s)).then((v) => JSON.stringify(v));", context, { filename: "page.js" });
  const s = await context.__run(JSON.stringify(input));
  checkResult(s, logs);
}

let call;
if (mode === "qjs-runtime") {
  const mod = await getQuickJS();
  call = () => qjsCall(mod);
} else if (mode === "qjs-instance") {
  // Compiled once (as our runner compiles once); instantiated per call.
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@jitl/quickjs-wasmfile-release-sync/package.json");
  const wasmPath = pkg.replace(/package\.json$/, "dist/emscripten-module.wasm");
  const wasmModule = new WebAssembly.Module(readFileSync(wasmPath));
  const variant = newVariant(RELEASE_SYNC, { wasmModule });
  call = async () => qjsCall(await newQuickJSWASMModule(variant));
} else if (mode === "node-vm") {
  call = nodeVmCall;
} else {
  console.error("usage: node peers.mjs qjs-runtime|qjs-instance|node-vm CALLS");
  process.exit(2);
}

if (calls === 0) {
  // the first run in a new process: one call, nothing printed
  await call();
  process.exit(0);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (let i = 0; i < 20; i++) await call(); // warm-up
const paced = [];
for (let i = 0; i < calls; i++) {
  await sleep(5);
  const t0 = process.hrtime.bigint();
  await call();
  paced.push(Number(process.hrtime.bigint() - t0) / 1000);
}
const b2b = [];
const c0 = process.cpuUsage();
for (let i = 0; i < calls; i++) {
  const t0 = process.hrtime.bigint();
  await call();
  b2b.push(Number(process.hrtime.bigint() - t0) / 1000);
}
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ mode, paced, b2b, cpuUs: (c.user + c.system) / calls }));
