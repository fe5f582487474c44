// The sandbox prelude: evaluated once in every fresh runtime, before any
// page code. It takes the one Go bridge function out of the global object,
// locks the realm down and defines __sb, the entry points the Go loop
// evaluates. Everything the tool can reach is checked again in Go: this
// file is a convenience layer, not the security boundary (see
// docs/sandbox.md).
(function (bridge, web) {
  "use strict";
  const G = globalThis;
  const R = Reflect;
  const apply = R.apply;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const O = Object;
  const freeze = O.freeze;
  const defineProperty = O.defineProperty;
  const getOwnPropertyNames = O.getOwnPropertyNames;
  const getPrototypeOf = O.getPrototypeOf;
  const hasOwn = O.hasOwn;
  const PromiseC = Promise;
  const promiseThen = Promise.prototype.then;
  const StringC = String;
  const ErrorC = Error;
  const TypeErrorC = TypeError;
  const MapC = Map;
  // The result check reads these after the page ran, which may have
  // replaced the globals: captured now.
  const WeakMapC = WeakMap, WeakSetC = WeakSet, WeakRefC = WeakRef, RegExpC = RegExp, ArrayBufferC = ArrayBuffer;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapDelete = Map.prototype.delete;
  const arrayMap = Array.prototype.map;
  const arrayJoin = Array.prototype.join;
  const isArray = Array.isArray;

  // Only the arguments given cross to Go (each one is copied into a Go
  // value: "take", "input", "text" pass none; Go reads a missing one as "").
  const call = (op, a, b) => (b !== undefined ? bridge(op, a === undefined ? "" : a, b) : a !== undefined ? bridge(op, a) : bridge(op));

  // 1. Globals: keep the ECMAScript built-ins, drop everything qjs adds
  //    (std, os, bjson, print, scriptArgs, gc, navigator, its console and
  //    os timers) and anything that can block (Atomics.wait).
  const keep = new Set([
    "Object", "Function", "Array", "Number", "parseFloat", "parseInt", "Infinity", "NaN",
    "undefined", "Boolean", "String", "Symbol", "Date", "Promise", "RegExp", "Error",
    "AggregateError", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError",
    "URIError", "InternalError", "JSON", "Math", "ArrayBuffer", "Uint8Array", "Int8Array",
    "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float16Array", "Float32Array",
    "Float64Array", "Uint8ClampedArray", "BigInt64Array", "BigUint64Array", "DataView", "Map",
    "BigInt", "Set", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Proxy", "Reflect",
    "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape",
    "isFinite", "isNaN", "globalThis", "Iterator", "queueMicrotask", "performance", "eval",
    "DOMException", "structuredClone",
  ]);
  for (const name of getOwnPropertyNames(G)) {
    if (!keep.has(name)) {
      try { delete G[name]; } catch (e) { defineProperty(G, name, { value: undefined }); }
    }
  }

  // 2. No code from strings: eval and the four function constructors throw,
  //    which also closes import() built at run time (the compiler refuses
  //    every import it can see).
  const noCode = function () {
    throw new TypeErrorC("code generation from strings is disabled in the sandbox");
  };
  const lock = (obj, name, value) =>
    defineProperty(obj, name, { value, writable: false, enumerable: false, configurable: false });
  const protos = [
    getPrototypeOf(function () {}),
    getPrototypeOf(async function () {}),
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function* () {}),
  ];
  for (const p of protos) lock(p, "constructor", noCode);
  lock(noCode, "prototype", protos[0]);
  lock(G, "Function", noCode);
  lock(G, "eval", function () { return noCode(); });

  // 2b. Web platform globals (web.js): URL, URLSearchParams, …, defined
  //     like Web IDL globals (writable, configurable, not enumerable).
  const defineGlobal = (name, value) => defineProperty(G, name, { value, writable: true, enumerable: false, configurable: true });
  // lazy: an accessor until first read (or write), then a plain global.
  const lazyGlobals = (names, factory) => {
    for (const name of names) {
      defineProperty(G, name, {
        get() { const v = factory()[name]; defineGlobal(name, v); return v; },
        set(v) { defineGlobal(name, v); },
        enumerable: false, configurable: true,
      });
    }
  };
  const webHooks = web(call, defineGlobal, lazyGlobals);
  webHooks.warm();

  // 3. console: always there, writes only to the run log (capped in Go).
  let logFull = false;
  const fmt = (v) => {
    if (typeof v === "string") return v;
    try {
      if (v instanceof ErrorC) return StringC(v.stack ? v.name + ": " + v.message + "\n" + v.stack : v);
      const s = stringify(v);
      return s === undefined ? StringC(v) : s;
    } catch (e) {
      try { return StringC(v); } catch (e2) { return "[unprintable]"; }
    }
  };
  const logger = (level) => function (...args) {
    if (logFull) return;
    let msg;
    try {
      msg = args.length > 0 ? fmt(args[0]) : "";
      for (let i = 1; i < args.length; i++) msg += " " + fmt(args[i]);
    } catch (e) { msg = "[unprintable]"; }
    if (call("log", level, msg) === "full") logFull = true;
  };
  const consoleObj = freeze({
    log: logger("log"), info: logger("info"), warn: logger("warn"),
    error: logger("error"), debug: logger("debug"), trace: logger("debug"),
  });
  lock(G, "console", consoleObj);

  // 4. Timers live in this runtime only (it is closed when the call ends);
  //    Go owns the clock and fires them, and the run's deadline ends them.
  const timers = new MapC();
  let nextTimer = 1;
  const addTimer = (fn, ms, args, repeat) => {
    if (typeof fn !== "function") throw new TypeErrorC("setTimeout needs a function (strings are not evaluated)");
    const id = nextTimer++;
    ms = +ms;
    if (!(ms >= 0)) ms = 0;
    apply(mapSet, timers, [id, { fn, ms, args, repeat }]);
    call("timer", StringC(id), StringC(ms));
    return id;
  };
  const clearTimer = (id) => {
    id = +id;
    if (apply(mapDelete, timers, [id])) call("clear", StringC(id));
  };
  lock(G, "setTimeout", function setTimeout(fn, ms, ...args) { return addTimer(fn, ms, args, false); });
  lock(G, "setInterval", function setInterval(fn, ms, ...args) { return addTimer(fn, ms, args, true); });
  lock(G, "clearTimeout", function clearTimeout(id) { clearTimer(id); });
  lock(G, "clearInterval", function clearInterval(id) { clearTimer(id); });

  // 5. Host calls: Go answers at once ({v} or {e}) or later ({p: id}),
  //    delivered by __sb.deliver on this thread.
  const pending = new MapC();
  let wantSites = false; // Job.CallSites, read at start
  // The Error is made when the tool calls, so its stack shows the tool's
  // frames (QuickJS loses the frames before an await).
  // Errors of host calls are known by identity, so that the record can
  // place them at the call (runner: the http.fetch expression, where check
  // puts its diagnostics) rather than where QuickJS stopped inside it.
  const hostErrors = new WeakMap();
  const weakSet = WeakMap.prototype.set, weakGet = WeakMap.prototype.get;
  // Most calls succeed, and QuickJS writes an Error's whole stack text
  // when the Error is made (~7 µs a frame in the sandbox). So the call's
  // Error keeps the frames as QuickJS's call sites (Error.prepareStackTrace,
  // through its own setter captured here: what the engine reads, whatever
  // a page does to the property), and the text is written only when the
  // call fails, the way QuickJS writes it (TestHostErrorStackAsQuickJS).
  // A page that set its own prepareStackTrace gets it called, as before.
  const pst = O.getOwnPropertyDescriptor(ErrorC, "prepareStackTrace");
  const pstGet = pst && pst.get, pstSet = pst && pst.set;
  let grabbed = null;
  const grab = (e, cs) => { grabbed = cs; };
  const callSites = () => {
    grabbed = null;
    apply(pstSet, ErrorC, [grab]);
    try { new ErrorC(); } finally { apply(pstSet, ErrorC, [undefined]); }
    const cs = grabbed;
    grabbed = null;
    return cs;
  };
  const site = pstSet ? callSites() : null;
  const siteProto = site && site.length > 0 ? getPrototypeOf(site[0]) : null;
  const siteMethod = (name) => (siteProto && typeof siteProto[name] === "function" ? siteProto[name] : null);
  const siteName = siteMethod("getFunctionName"), siteNative = siteMethod("isNative"), siteFile = siteMethod("getFileName");
  const siteLine = siteMethod("getLineNumber"), siteCol = siteMethod("getColumnNumber");
  const lazyStacks = pstGet !== undefined && siteName && siteNative && siteFile && siteLine && siteCol;
  // the text QuickJS writes for these frames (build_backtrace)
  const stackText = (cs) => {
    let s = "";
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      const n = apply(siteName, c, []);
      s += "    at " + (n === null || n === undefined || n === "" ? "<anonymous>" : n);
      if (apply(siteNative, c, [])) s += " (native)";
      else {
        const f = apply(siteFile, c, []), l = apply(siteLine, c, []);
        s += " (" + (f === null || f === undefined ? "<null>" : f);
        if (l !== -1 && l !== null && l !== undefined) s += ":" + l + ":" + apply(siteCol, c, []);
        s += ")";
      }
      s += "\n";
    }
    return s;
  };
  // failed gives the call's Error its message and, when it kept call
  // sites (sites not null), its stack.
  const failed = (err, sites, method, message) => {
    err.message = message;
    if (sites !== null) err.stack = stackText(sites);
    apply(weakSet, hostErrors, [err, method]);
    return err;
  };
  // hostCall calls method with its arguments as JSON text (argsJSON); a
  // value it answers is handed to settle first (the Response of a fetch:
  // the call's own promise resolves to it, no second promise and job).
  const hostCall = (method, argsJSON, signal, settle) => {
    // The Error is made here, in this frame, as it always was: the frames
    // above the page's (hostCall, the method) count against
    // Error.stackTraceLimit, so a helper frame more would show one page
    // frame less.
    let err, sites = null;
    if (lazyStacks && apply(pstGet, ErrorC, []) === undefined) {
      grabbed = null;
      apply(pstSet, ErrorC, [grab]);
      try { err = new ErrorC(method + " failed"); } finally { apply(pstSet, ErrorC, [undefined]); }
      if (grabbed !== null && isArray(grabbed)) sites = grabbed;
      grabbed = null;
    } else err = new ErrorC(method + " failed");
    if (wantSites) {
      // exploration: Go learns where the call was made
      let st = "";
      try { st = sites !== null ? stackText(sites) : StringC(err.stack); } catch (e) { st = ""; }
      call("site", st);
    }
    return new PromiseC((resolve, reject) => {
      const r = parse(call("call", method, argsJSON));
      if (hasOwn(r, "p")) {
        apply(mapSet, pending, [r.p, { resolve, reject, err, sites, method, settle }]);
        // An AbortSignal rejects the call with its reason and tells Go to
        // stop the request (its goroutine sees a cancelled context).
        if (signal) signal.addEventListener("abort", () => {
          if (!apply(mapDelete, pending, [r.p])) return;
          call("cancel", StringC(r.p));
          reject(signal.reason);
        });
      } else if (hasOwn(r, "e")) reject(failed(err, sites, method, r.e));
      else resolve(settle === undefined ? r.v : settle(r.v));
    });
  };
  const plain = (v) => (v === undefined ? null : v);

  const builders = {
    "http.fetch": () => function fetch(input, init) {
      // The request is read exactly once, here (web.js fetchArgs): what Go
      // checks is what Go fetches (no toString or getter that answers
      // differently later). A string URL goes to the broker as written.
      if (typeof input === "string" && (init === undefined || init === null)) {
        // the common case, as fetchArgs reads it, written at once
        return hostCall("http.fetch", "[" + stringify(input) + ',{"method":"GET","headers":{}}]', null, webHooks.response);
      }
      let a;
      try { a = webHooks.fetchArgs(input, init); } catch (e) { return PromiseC.reject(e); }
      const sig = a.signal;
      if (sig !== null && sig.aborted) return PromiseC.reject(sig.reason);
      return hostCall("http.fetch", stringify([a.url, a.init]), sig, webHooks.response);
    },
  };
  const generic = (name) => function (...args) {
    let a;
    try { a = stringify(apply(arrayMap, args, [plain])); } catch (e) { return PromiseC.reject(e); }
    return hostCall(name, a);
  };

  // 6. Results are JSON or a ResultError. jsonResult walks the value the
  //    way JSON.stringify does (toJSON first), iteratively (no recursion
  //    limit to trip), and builds a plain copy; anything JSON.stringify
  //    would silently drop, turn into null or {} is an error with the path
  //    of the value (result.items[3].when). It runs on every result, so it
  //    allocates nothing per value it does not keep: a value's path is
  //    only written for the error, and the copy is made of objects and
  //    arrays without a prototype (a plain assignment meets no setter).
  const SetC = Set;
  const setAdd = Set.prototype.add, setHas = Set.prototype.has, setDelete = Set.prototype.delete;
  const mapSize = O.getOwnPropertyDescriptor(Map.prototype, "size").get;
  const setSize = O.getOwnPropertyDescriptor(Set.prototype, "size").get;
  const getOwnPropertyDescriptor = O.getOwnPropertyDescriptor;
  const setPrototypeOf = O.setPrototypeOf;
  const objectKeys = O.keys;
  const ObjectProto = O.prototype, ArrayProto = Array.prototype;
  const isFiniteN = Number.isFinite;
  const DateC = Date;
  const isView = ArrayBuffer.isView;
  const reTest = RegExp.prototype.test;
  const identRe = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  // Checks by instanceof first: a thrown exception costs a backtrace in
  // QuickJS, far too much to pay per object of a result. The brand check
  // then confirms (this is author feedback, not a security check).
  const brand = (getter, v) => { try { apply(getter, v, []); return true; } catch (e) { return false; } };
  const NumberC = Number, BooleanC = Boolean;
  const numberValueOf = Number.prototype.valueOf, stringValueOf = String.prototype.valueOf, booleanValueOf = Boolean.prototype.valueOf;
  const shortPath = (p) => (p.length > 300 ? p.slice(0, 150) + "…" + p.slice(-100) : p);
  const resultErr = (path, what, hint) => ({ err: shortPath(path) + " is " + what + (hint ? ": " + hint : ""), path: shortPath(path) });
  // classify names what JSON cannot hold among objects (null: fine). An
  // object whose prototype is Object.prototype or null, or an array of
  // Array.prototype (arrays: whose prototype is Object.prototype), is none
  // of those classes and has no prototype getters: only a typed array
  // moved onto such a prototype can still be binary data.
  let plainArrays = true;
  const classify = (v, proto) => {
    if (proto === ObjectProto || proto === null || (proto === ArrayProto && plainArrays && isArray(v))) {
      return isView(v) ? ["binary data (ArrayBuffer/typed array)", "return an array of numbers or a base64 string (btoa)"] : null;
    }
    if (v instanceof MapC && brand(mapSize, v)) return ["a Map", "JSON.stringify writes {} for it; return Object.fromEntries(map) or [...map]"];
    if (v instanceof SetC && brand(setSize, v)) return ["a Set", "JSON.stringify writes {} for it; return [...set]"];
    if (v instanceof WeakMapC || v instanceof WeakSetC || v instanceof WeakRefC) return ["a weak collection", "it cannot be serialized"];
    if (v instanceof PromiseC) return ["a Promise", "await it before returning"];
    if (v instanceof RegExpC) return ["a RegExp", "JSON.stringify writes {} for it; return regexp.source"];
    if (v instanceof ErrorC) return ["an Error", "JSON.stringify writes {} for it; throw it, or return { message: err.message }"];
    if (v instanceof ArrayBufferC || isView(v)) return ["binary data (ArrayBuffer/typed array)", "return an array of numbers or a base64 string (btoa)"];
    let getters = [];
    while (proto !== null && proto !== ObjectProto && !isArray(v)) {
      for (const k of getOwnPropertyNames(proto)) {
        const d = getOwnPropertyDescriptor(proto, k);
        if (d && d.get && k !== "__proto__") getters[getters.length] = k;
      }
      proto = getPrototypeOf(proto);
    }
    if (getters.length > 0) return ["a class instance whose getters (" + apply(arrayJoin, getters, [", "]) + ") JSON.stringify skips", "return a plain object with those fields"];
    return null;
  };
  // convert applies toJSON and checks one value. Its answer is cv (the
  // value) and what it returns: PRIM (a primitive for the copy), OBJ (an
  // object to walk), SKIP (an undefined property) or BAD (cvWhat, cvHint).
  // at: 0 the result itself, 1 an array element, 2 an object property.
  const PRIM = 0, OBJ = 1, SKIP = 2, BAD = 3;
  let cv, cvWhat, cvHint;
  const bad = (what, hint) => { cvWhat = what; cvHint = hint; return BAD; };
  const convert = (value, key, at) => {
    if (value !== null && (typeof value === "object" || typeof value === "function")) {
      const tj = value.toJSON;
      if (typeof tj === "function") {
        const isDate = value instanceof DateC;
        value = apply(tj, value, [key]);
        if (isDate && value === null) return bad("an invalid Date", "JSON.stringify writes null for it");
      }
    }
    let proto;
    if (value !== null && typeof value === "object") {
      // new Number(1), new String("s"): JSON.stringify unwraps them
      proto = getPrototypeOf(value);
      if (proto !== ObjectProto && proto !== ArrayProto && proto !== null) {
        const f = value instanceof NumberC ? numberValueOf : value instanceof StringC ? stringValueOf : value instanceof BooleanC ? booleanValueOf : null;
        if (f !== null) {
          try { value = apply(f, value, []); } catch (e) { /* not a boxed primitive after all */ }
        }
      }
    }
    switch (typeof value) {
      case "string": case "boolean": cv = value; return PRIM;
      case "number":
        if (isFiniteN(value)) { cv = value; return PRIM; }
        return bad(StringC(value), "JSON has no " + StringC(value) + " (JSON.stringify writes null)");
      case "bigint": return bad("a BigInt", "JSON has no BigInt; return it as a string or a number");
      case "undefined":
        if (at === 2) return SKIP;
        return bad("undefined", at === 0 ? "return a value (null, an object, …)" : "JSON.stringify writes null for it");
      case "function": return bad("a function", "JSON.stringify drops it");
      case "symbol": return bad("a Symbol", "JSON.stringify drops it");
    }
    if (value === null) { cv = null; return PRIM; }
    const c = classify(value, proto);
    if (c !== null) return bad(c[0], c[1]);
    cv = value;
    return OBJ;
  };
  const childPath = (path, key, arr) =>
    arr ? path + "[" + key + "]" : apply(reTest, identRe, [key]) ? path + "." + key : path + "[" + stringify(key) + "]";
  // pathOf writes the path of frame f's key k (frames keep their parent).
  const pathOf = (f, k) => {
    const chain = [];
    for (let g = f; g.parent !== null; g = g.parent) chain[chain.length] = g;
    let p = "result";
    for (let i = chain.length - 1; i >= 0; i--) p = childPath(p, chain[i].key, chain[i].parent.arr);
    return k === undefined ? p : childPath(p, k, f.arr);
  };
  const frame = (v, parent, key) => {
    const arr = isArray(v);
    const keys = arr ? null : objectKeys(v);
    const out = arr ? [] : { __proto__: null };
    if (arr) setPrototypeOf(out, null);
    return { v, arr, keys, n: arr ? v.length : keys.length, i: 0, out, parent, key };
  };
  const jsonResult = (root) => {
    plainArrays = getPrototypeOf(ArrayProto) === ObjectProto;
    const k0 = convert(root, "", 0);
    if (k0 === BAD) return resultErr("result", cvWhat, cvHint);
    if (k0 === PRIM) return { v: cv };
    const top = frame(cv, null, "");
    const stack = [top];
    const open = new SetC();
    apply(setAdd, open, [top.v]);
    while (stack.length > 0) {
      const f = stack[stack.length - 1];
      if (f.i >= f.n) { stack.length--; apply(setDelete, open, [f.v]); continue; }
      const i = f.i++;
      const k = f.arr ? i : f.keys[i];
      const kind = convert(f.v[k], StringC(k), f.arr ? 1 : 2);
      if (kind === SKIP) continue;
      if (kind === BAD) return resultErr(pathOf(f, k), cvWhat, cvHint);
      let val = cv;
      if (kind === OBJ) {
        if (apply(setHas, open, [val])) return resultErr(pathOf(f, k), "a circular reference", "JSON cannot hold a cycle");
        if (stack.length >= 1000) return resultErr(pathOf(f, k), "nested more than 1000 levels deep", "flatten the result");
        const nf = frame(val, f, k);
        stack[stack.length] = nf;
        apply(setAdd, open, [val]);
        val = nf.out;
      }
      f.out[k] = val;
    }
    return { v: top.out };
  };
  // resultText is the result's JSON text, or jsonResult's error. First
  // JSON.stringify writes it while a replacer (fastCheck) looks at each
  // value after its toJSON, as jsonResult would: a value jsonResult might
  // refuse, a null that may come from an invalid Date behind a getter, or
  // more than 256 levels (stringify recurses on the sandbox's stack; 5,000
  // levels stop the runtime) make it give up (BAIL), and jsonResult walks
  // the value again and decides (a getter or toJSON of the page then runs
  // twice; only on those results). The replacer is one call per value,
  // far cheaper than jsonResult's walk in the interpreter (a table of 20
  // rows: ~1 ms against ~10 ms).
  const BAIL = {};
  const BigIntProto = BigInt.prototype;
  let holders = null, depth = 0; // the objects stringify is inside
  const fastCheck = function (key, value) {
    while (depth > 0 && holders[depth - 1] !== this) depth--;
    if (depth === 0) holders[depth++] = this;
    switch (typeof value) {
      case "string": case "boolean": return value;
      case "number": if (isFiniteN(value)) return value; throw BAIL;
      case "undefined": if (isArray(this)) throw BAIL; return value; // a property JSON leaves out
      case "object": {
        if (value === null) {
          // null as it was, or what a toJSON gave: an invalid Date's is an error
          const d = getOwnPropertyDescriptor(this, key);
          if (d === undefined || !hasOwn(d, "value")) throw BAIL;
          if (d.value instanceof DateC) throw BAIL;
          return null;
        }
        const proto = getPrototypeOf(value);
        if (proto === ObjectProto || proto === null || (proto === ArrayProto && plainArrays && isArray(value))) {
          if (isView(value)) throw BAIL;
        } else if (value instanceof NumberC || value instanceof StringC || value instanceof BooleanC || classify(value, proto) !== null) throw BAIL;
        if (depth >= 256) throw BAIL;
        holders[depth++] = value;
        return value;
      }
    }
    throw BAIL; // a function, Symbol or BigInt
  };
  const resultText = (root) => {
    plainArrays = getPrototypeOf(ArrayProto) === ObjectProto;
    // JSON.stringify applies a toJSON to a BigInt too (jsonResult refuses it)
    if (!("toJSON" in BigIntProto)) {
      let s;
      holders = [];
      depth = 0;
      try { s = stringify(root, fastCheck); } catch (e) { s = undefined; }
      holders = null;
      if (s !== undefined) return { s };
    }
    const j = jsonResult(root);
    if (j.err !== undefined) return j;
    const s = stringify(j.v);
    return { s: s === undefined ? "null" : s };
  };

  let installed = false, page = null;
  const sb = freeze({
    // install defines the granted host objects (frozen, non-writable).
    install(methodsJSON) {
      if (installed) return;
      installed = true;
      const groups = {};
      for (const m of parse(methodsJSON)) {
        const dot = m.indexOf(".");
        const ns = m.slice(0, dot), fn = m.slice(dot + 1);
        if (!groups[ns]) groups[ns] = {};
        groups[ns][fn] = builders[m] ? builders[m]() : generic(m);
      }
      for (const ns of O.keys(groups)) lock(G, ns, freeze(groups[ns]));
    },
    // start calls the page's default export with the input Go hands over.
    start() {
      page = G.__page;
      wantSites = call("sites") === "1";
      const report = (ok, v) => {
        if (ok) {
          let s;
          try {
            const j = resultText(v);
            if (j.err !== undefined) {
              call("done", "err", stringify({ name: "ResultError", message: "the result is not JSON: " + j.err, stack: "", path: j.path }));
              return;
            }
            s = j.s;
          } catch (e) {
            return report(false, e);
          }
          call("done", "ok", s === undefined ? "null" : s);
          return;
        }
        let name = "Error", message = "", stack = "";
        try {
          if (v !== null && (typeof v === "object" || typeof v === "function")) {
            name = StringC(v.name === undefined ? "Error" : v.name);
            message = StringC(v.message === undefined ? fmt(v) : v.message);
            stack = typeof v.stack === "string" ? v.stack : "";
          } else {
            name = "Thrown";
            message = fmt(v);
          }
        } catch (e) { message = "[unprintable thrown value]"; }
        let host;
        try { host = apply(weakGet, hostErrors, [v]); } catch (e) { host = undefined; }
        call("done", "err", stringify({ name, message, stack, host }));
      };
      const fn = page && (typeof page === "function" ? page : page.default);
      if (typeof fn !== "function") {
        report(false, new TypeErrorC("the page has no default export function"));
        return;
      }
      let r;
      try { r = fn(parse(call("input"))); } catch (e) { report(false, e); return; }
      try {
        apply(promiseThen, PromiseC.resolve(r), [(v) => report(true, v), (e) => report(false, e)]);
      } catch (e) { report(false, e); }
    },
    // deliver settles every host call Go has finished.
    deliver() {
      for (;;) {
        const s = call("take");
        if (s === "") return;
        const r = parse(s);
        // A text Go handed over as it is (sandbox.SetText): a small one
        // in this answer ("x"), a larger one a string made from its bytes
        // by a call of its own, not a JSON string to parse.
        if (hasOwn(r, "t")) r.v[r.t] = hasOwn(r, "x") ? r.x : call("text");
        const p = apply(mapGet, pending, [r.id]);
        if (p) {
          apply(mapDelete, pending, [r.id]);
          if (hasOwn(r, "e")) p.reject(failed(p.err, p.sites, p.method, r.e));
          else if (p.settle === undefined) p.resolve(r.v);
          else {
            let v, ok = true;
            try { v = p.settle(r.v); } catch (e) { ok = false; p.reject(e); }
            if (ok) p.resolve(v);
          }
        }
        // "l": Go had nothing more waiting (a later result wakes the loop)
        if (hasOwn(r, "l")) return;
      }
    },
    // fire runs the timer with this id (Go decides when).
    fire(id) {
      const t = apply(mapGet, timers, [id]);
      if (!t) return;
      if (t.repeat) call("timer", StringC(id), StringC(t.ms));
      else apply(mapDelete, timers, [id]);
      apply(t.fn, undefined, t.args);
    },
  });
  lock(G, "__sb", sb);
})
