// The plugin-lsp native-tool harness: a development harness on Node's own
// hooks, not a sandbox. The Go side (internal/runner/native) starts it in
// its own process group and talks to it over two channels:
//   stdin  one JSON line (the run: module URL, tool name, input, providers,
//          the deadline to load by), then one JSON line ("go": the input
//          passed inputJsonSchema, the tool's deadline, with the dev values
//          the tool's requires grant);
//   fd 3   JSON lines of events: describe, approval, log, conn, notify,
//          result or error.
// The module's own stdout and stderr are separate pipes (the run's logs).
import fs from "node:fs";
import net from "node:net";
import tls from "node:tls";
import dgram from "node:dgram";
import http from "node:http";
import https from "node:https";
import { AsyncLocalStorage } from "node:async_hooks";
import { syncBuiltinESMExports } from "node:module";
import { fileURLToPath } from "node:url";

const EVENTS = 3;
const MAX_EVENT = 1 << 20; // one log or connection event
const MAX_RESULT = 16 << 20;

function emit(ev, max = MAX_EVENT) {
  let line = JSON.stringify(ev);
  if (line.length > max) {
    if (ev.t === "log") {
      ev.message = ev.message.slice(0, max - 256) + "…";
      line = JSON.stringify(ev);
    } else {
      line = JSON.stringify({ t: "error", name: "ResultError", message: `the result is larger than ${max} bytes as JSON` });
    }
  }
  try {
    fs.writeSync(EVENTS, line + "\n");
  } catch {
    // the Go side went away: nothing to report to
  }
}

// --- reading stdin: line by line ---------------------------------------
let stdinBuf = "";
const waiters = [];
const lines = [];
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  stdinBuf += chunk;
  let i;
  while ((i = stdinBuf.indexOf("\n")) >= 0) {
    const l = stdinBuf.slice(0, i);
    stdinBuf = stdinBuf.slice(i + 1);
    if (waiters.length) waiters.shift()(l);
    else lines.push(l);
  }
});
process.stdin.on("end", () => {
  while (waiters.length) waiters.shift()(null);
});
function readLine() {
  if (lines.length) return Promise.resolve(lines.shift());
  return new Promise((resolve) => waiters.push(resolve));
}
function unrefStdin() {
  process.stdin.pause();
  process.stdin.unref?.();
}

// --- formatting what the module logs ------------------------------------
function fmt(args) {
  return args
    .map((a) => {
      if (typeof a === "string") return a;
      if (a instanceof Error) return a.stack || String(a);
      try {
        const s = JSON.stringify(a);
        return s === undefined ? String(a) : s;
      } catch {
        return String(a);
      }
    })
    .join(" ");
}

// --- observed reach ------------------------------------------------------
const GRANT = {
  tcp: "network.socket", tls: "network.socket", udp: "network.socket",
  http: "network.http", https: "network.http",
  ws: "network.websocket", wss: "network.websocket",
};
let providers = "fake";
let requires = [];
const via = new AsyncLocalStorage();

function decide(protocol, host, port) {
  let refused;
  if (providers !== "real") refused = "fake-providers";
  else if (!requires.includes(GRANT[protocol])) refused = "not-required";
  const ev = { t: "conn", protocol, host: String(host ?? ""), port: Number(port) || 0 };
  if (refused) ev.refused = refused;
  emit(ev);
  return refused;
}

function refusal(d) {
  const why = d.refused === "fake-providers"
    ? "fake providers refuse every connection (run with --providers real)"
    : `the tool's requires does not grant it (add "${GRANT[d.protocol]}" to requires)`;
  const e = new Error(`plugin-lsp refused the ${d.protocol} connection to ${d.host}:${d.port}: ${why}`);
  e.code = "ECONNREFUSED";
  e.refused = d.refused;
  return e;
}

function connArgs(args) {
  let a = args[0];
  if (Array.isArray(a)) a = a[0]; // net's normalized [options, cb]
  if (a && typeof a === "object") {
    if (a.path) return { host: "unix:" + a.path, port: 0 };
    return { host: a.host || a.hostname || "localhost", port: Number(a.port) || 0 };
  }
  if (typeof a === "string" && isNaN(Number(a))) return { host: "unix:" + a, port: 0 };
  return { host: typeof args[1] === "string" ? args[1] : "localhost", port: Number(a) || 0 };
}

const origConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const { host, port } = connArgs(args);
  const isTLS = this instanceof tls.TLSSocket;
  const outer = via.getStore();
  let d;
  if (outer && !outer.used && (outer.host === host || outer.host === undefined) && (outer.port === port || !outer.port)) {
    outer.used = true; // the socket of the request that decided already
    d = outer;
  } else if (outer && outer.web) {
    // a web request's next socket (a redirect, a new pooled connection)
    const protocol = isTLS ? outer.web[1] : outer.web[0];
    d = { protocol, host, port, refused: decide(protocol, host, port) };
  } else {
    const protocol = isTLS ? "tls" : "tcp";
    d = { protocol, host, port, refused: decide(protocol, host, port) };
  }
  if (d.refused) {
    const err = refusal(d);
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return origConnect.apply(this, args);
};

function webTarget(kind, input, opts) {
  // http.request(url | options [, options] [, cb])
  let u;
  let o = {};
  if (typeof input === "string" || input instanceof URL) {
    try { u = new URL(String(input)); } catch { u = undefined; }
    if (opts && typeof opts === "object") o = opts;
  } else if (input && typeof input === "object") {
    o = input;
  }
  const host = o.hostname || o.host || (u && u.hostname) || "localhost";
  const port = Number(o.port || (u && u.port)) || (kind === "https" ? 443 : 80);
  const headers = o.headers || {};
  let upgrade = "";
  for (const k of Object.keys(headers)) if (k.toLowerCase() === "upgrade") upgrade = String(headers[k]).toLowerCase();
  const protocol = upgrade === "websocket" ? (kind === "https" ? "wss" : "ws") : kind;
  return { protocol, host: String(host).replace(/^\[|\]$/g, ""), port };
}

function wrapRequest(mod, kind) {
  for (const fnName of ["request", "get"]) {
    const orig = mod[fnName];
    mod[fnName] = function (...args) {
      const t = webTarget(kind, args[0], args[1]);
      const d = { ...t, refused: decide(t.protocol, t.host, t.port), web: ["tcp", "tls"] };
      return via.run(d, () => orig.apply(this, args));
    };
  }
}
wrapRequest(http, "http");
wrapRequest(https, "https");

const origFetch = globalThis.fetch;
if (origFetch) {
  globalThis.fetch = function (input, init) {
    let u;
    try {
      u = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url);
    } catch {
      return origFetch.call(this, input, init);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") return origFetch.call(this, input, init);
    const protocol = u.protocol.slice(0, -1);
    const port = Number(u.port) || (protocol === "https" ? 443 : 80);
    const host = u.hostname.replace(/^\[|\]$/g, "");
    const d = { protocol, host, port, refused: decide(protocol, host, port), web: ["http", "https"] };
    if (d.refused) return Promise.reject(new TypeError("fetch failed", { cause: refusal(d) }));
    return via.run(d, () => origFetch.call(this, input, init));
  };
}

const OrigWebSocket = globalThis.WebSocket;
if (OrigWebSocket) {
  globalThis.WebSocket = class WebSocket extends OrigWebSocket {
    constructor(url, protocols) {
      let u;
      try { u = new URL(String(url)); } catch { u = undefined; }
      if (!u) {
        super(url, protocols);
        return;
      }
      const protocol = u.protocol === "wss:" || u.protocol === "https:" ? "wss" : "ws";
      const port = Number(u.port) || (protocol === "wss" ? 443 : 80);
      const host = u.hostname.replace(/^\[|\]$/g, "");
      const d = { protocol, host, port, refused: decide(protocol, host, port), web: ["ws", "wss"] };
      return via.run(d, () => {
        super(url, protocols);
        return this;
      });
    }
  };
}

const udpSeen = new Set();
function udpDecide(sock, host, port) {
  const key = `${host}:${port}`;
  sock.__pluginLspUdp ??= new Map();
  if (sock.__pluginLspUdp.has(key)) return sock.__pluginLspUdp.get(key);
  const refused = udpSeen.has(key) ? sock.__pluginLspUdp.get(key) : decide("udp", host, port);
  udpSeen.add(key);
  const d = { protocol: "udp", host, port, refused };
  sock.__pluginLspUdp.set(key, d);
  return d;
}
const origSend = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (msg, ...rest) {
  let port, address;
  const cb = typeof rest[rest.length - 1] === "function" ? rest[rest.length - 1] : undefined;
  const nums = rest.filter((x) => typeof x === "number");
  if (typeof rest[0] === "number" && typeof rest[1] === "number" && typeof rest[2] === "number") {
    port = rest[2]; address = typeof rest[3] === "string" ? rest[3] : "localhost";
  } else if (typeof rest[0] === "number") {
    port = rest[0]; address = typeof rest[1] === "string" ? rest[1] : "localhost";
  } else if (this.__pluginLspRemote) {
    ({ host: address, port } = this.__pluginLspRemote);
  }
  void nums;
  if (port !== undefined) {
    const d = udpDecide(this, address, port);
    if (d.refused) {
      const err = refusal(d);
      process.nextTick(() => (cb ? cb(err) : this.emit("error", err)));
      return;
    }
  }
  return origSend.call(this, msg, ...rest);
};
const origUdpConnect = dgram.Socket.prototype.connect;
dgram.Socket.prototype.connect = function (port, address, cb) {
  if (typeof address === "function") { cb = address; address = undefined; }
  const host = address || "localhost";
  const d = udpDecide(this, host, port);
  if (d.refused) {
    const err = refusal(d);
    process.nextTick(() => (cb ? cb(err) : this.emit("error", err)));
    return;
  }
  this.__pluginLspRemote = { host, port };
  return origUdpConnect.call(this, port, address, cb);
};
syncBuiltinESMExports();

// --- console: the run's logs, with levels ----------------------------------
for (const level of ["log", "info", "warn", "error", "debug"]) {
  console[level] = (...args) => emit({ t: "log", level, message: fmt(args) });
}
console.trace = (...args) => emit({ t: "log", level: "debug", message: fmt(args) + "\n" + new Error().stack });

// --- ctx ---------------------------------------------------------------
const MEMBERS = {
  secrets: ["secrets.read"],
  storage: ["storage.kv"],
  collections: ["collections.read", "collections.write"],
  notify: ["notify.user"],
};

function jsonCopy(v, what) {
  if (v === undefined) return undefined;
  const s = JSON.stringify(v);
  if (s === undefined) throw new TypeError(`${what}: the value is not JSON`);
  return JSON.parse(s);
}

function makeCtx(cfg, go, signal, toolName) {
  const has = (cap) => requires.includes(cap);
  const missing = (member, cap) => {
    const e = new Error(`ctx.${member} needs "${cap}" in the requires of ${toolName}; it declares ${requires.length ? requires.map((r) => JSON.stringify(r)).join(", ") : "none"}`);
    e.name = "CapabilityError";
    return e;
  };
  const secrets = go.secrets || {};
  const storage = new Map(Object.entries(go.storage || {}));
  const collections = new Map();
  for (const [name, docs] of Object.entries(go.collections || {})) {
    collections.set(name, new Map(Object.entries(docs && typeof docs === "object" ? docs : {})));
  }
  const col = (name) => {
    if (typeof name !== "string") throw new TypeError("a collection name is a string");
    if (!collections.has(name)) collections.set(name, new Map());
    return collections.get(name);
  };
  const members = {};
  if (has("secrets.read")) {
    members.secrets = Object.freeze({
      async get(name) {
        if (!Object.prototype.hasOwnProperty.call(secrets, name)) {
          const e = new Error(go.secretErrors?.[name] || `no credential ${JSON.stringify(String(name))} in capabilities.credentials`);
          e.name = "SecretError";
          throw e;
        }
        return secrets[name];
      },
    });
  }
  if (has("storage.kv")) {
    members.storage = Object.freeze({
      async get(key) { return jsonCopy(storage.get(String(key)), "storage.get") ?? null; },
      async set(key, value) {
        storage.set(String(key), jsonCopy(value, "storage.set"));
        emit({ t: "storage", key: String(key), value: storage.get(String(key)) ?? null });
      },
      async delete(key) {
        const had = storage.delete(String(key));
        emit({ t: "storage", key: String(key), deleted: true });
        return had;
      },
    });
  }
  if (has("collections.read") || has("collections.write")) {
    const c = {};
    const needRead = () => { if (!has("collections.read")) throw missing("collections.get", "collections.read"); };
    const needWrite = () => { if (!has("collections.write")) throw missing("collections.put", "collections.write"); };
    c.get = async (name, id) => { needRead(); return jsonCopy(col(name).get(String(id)), "collections.get") ?? null; };
    c.query = async (name, filter) => {
      needRead();
      const out = [];
      for (const [id, doc] of col(name)) {
        let ok = true;
        if (filter && typeof filter === "object") {
          for (const [k, v] of Object.entries(filter)) {
            if (!doc || typeof doc !== "object" || JSON.stringify(doc[k]) !== JSON.stringify(v)) ok = false;
          }
        }
        if (ok) out.push({ id, ...(doc && typeof doc === "object" ? doc : { value: doc }) });
      }
      return jsonCopy(out, "collections.query");
    };
    c.put = async (name, id, doc) => {
      needWrite();
      col(name).set(String(id), jsonCopy(doc, "collections.put"));
      emit({ t: "collection", name: String(name), id: String(id) });
    };
    c.delete = async (name, id) => {
      needWrite();
      const had = col(name).delete(String(id));
      emit({ t: "collection", name: String(name), id: String(id), deleted: true });
      return had;
    };
    members.collections = Object.freeze(c);
  }
  if (has("notify.user")) {
    members.notify = async (message) => { emit({ t: "notify", message: fmt([message]) }); };
  }
  const base = {
    callId: cfg.callId,
    claim: cfg.claim,
    signal,
    log: (...args) => emit({ t: "log", level: "log", message: fmt(args) }),
  };
  Object.assign(base, members);
  Object.freeze(base);
  return new Proxy(base, {
    get(target, prop, recv) {
      if (typeof prop === "string" && !(prop in target) && MEMBERS[prop]) throw missing(prop, MEMBERS[prop][0]);
      return Reflect.get(target, prop, recv);
    },
    has(target, prop) { return Reflect.has(target, prop); },
  });
}

// --- the run -------------------------------------------------------------
function errorEvent(e, fallbackName) {
  if (e instanceof Error || (e && typeof e === "object" && "message" in e)) {
    let stack = typeof e.stack === "string" ? e.stack : "";
    if (e.cause instanceof Error && e.cause.stack) stack += "\nCaused by: " + e.cause.stack;
    return { t: "error", name: String(e.name || fallbackName), message: String(e.message), stack };
  }
  return { t: "error", name: fallbackName, message: `threw a non-Error value: ${fmt([e])}`, stack: "" };
}

function isPlainJSON(v, path, depth, seen) {
  if (depth > 256) return path;
  if (v === null || typeof v === "string" || typeof v === "boolean") return "";
  if (typeof v === "number") return Number.isFinite(v) ? "" : path;
  if (typeof v !== "object") return path;
  if (seen.has(v)) return path;
  const proto = Object.getPrototypeOf(v);
  if (Array.isArray(v)) {
    seen.add(v);
    for (let i = 0; i < v.length; i++) {
      const p = isPlainJSON(v[i], `${path}[${i}]`, depth + 1, seen);
      if (p) return p;
    }
    seen.delete(v);
    return "";
  }
  if (proto !== Object.prototype && proto !== null) return path;
  seen.add(v);
  for (const k of Object.keys(v)) {
    const p = isPlainJSON(v[k], /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, depth + 1, seen);
    if (p) return p;
  }
  seen.delete(v);
  return "";
}

async function main() {
  const first = await readLine();
  if (first == null) return;
  const cfg = JSON.parse(first);
  providers = cfg.providers;
  let mod;
  try {
    mod = await import(cfg.module);
  } catch (e) {
    const ev = errorEvent(e, "Error");
    ev.message = `importing the module threw ${ev.name}: ${ev.message}`;
    ev.name = "ImportError";
    emit(ev);
    return;
  }
  const map = mod.tools && typeof mod.tools === "object" ? mod.tools : mod.default && typeof mod.default === "object" ? mod.default : null;
  const def = map && Object.prototype.hasOwnProperty.call(map, cfg.name) ? map[cfg.name] : undefined;
  if (!def || typeof def !== "object") {
    const names = map ? Object.keys(map) : [];
    emit({ t: "error", name: "ToolError", message: `${fileURLToPath(cfg.module)} exports no tool ${JSON.stringify(cfg.name)} in its ${mod.tools ? "tools" : "default"} export${names.length ? ` (it has ${names.map((n) => JSON.stringify(n)).join(", ")})` : ""}`, stack: "" });
    return;
  }
  if (typeof def.execute !== "function") {
    emit({ t: "error", name: "ToolError", message: `tool ${cfg.name} has no execute function`, stack: "" });
    return;
  }
  requires = Array.isArray(def.requires) ? def.requires.filter((r) => typeof r === "string") : [];
  let schema = null;
  try {
    schema = def.inputJsonSchema === undefined ? null : JSON.stringify(def.inputJsonSchema);
  } catch {
    schema = null;
  }
  emit({ t: "describe", schema: schema ?? null, requires });
  const goLine = await readLine();
  unrefStdin();
  if (goLine == null) return;
  const go = JSON.parse(goLine);
  if (!go.go) return;
  const args = go.input !== undefined ? go.input : cfg.input;

  // needsApproval is true when absent (docs/broker-capabilities.md): the
  // card shows an absent value as "always", and so does the run.
  let approval = true;
  try {
    if (typeof def.needsApproval === "function") approval = !!(await def.needsApproval(args));
    else if (def.needsApproval !== undefined) approval = !!def.needsApproval;
  } catch (e) {
    emit(errorEvent(e, "ApprovalError"));
    return;
  }
  emit({ t: "approval", required: approval });

  const controller = new AbortController();
  const left = Math.max(0, (go.deadline ?? cfg.deadline) - Date.now());
  const timer = setTimeout(() => controller.abort(new DOMException("the run reached its deadline", "TimeoutError")), left);
  timer.unref();
  const ctx = makeCtx(cfg, go, controller.signal, cfg.name);
  let value;
  try {
    value = await def.execute(args, ctx);
  } catch (e) {
    emit(errorEvent(e, "Error"));
    return;
  }
  if (value === undefined) value = null;
  const bad = isPlainJSON(value, "result", 0, new Set());
  if (bad) {
    emit({ t: "error", name: "ResultError", message: `the result is not JSON at ${bad}`, stack: "", path: bad });
    return;
  }
  emit({ t: "result", value }, MAX_RESULT);
}

main().then(
  () => process.exit(0),
  (e) => {
    emit(errorEvent(e, "HarnessError"));
    process.exit(0);
  },
);
