// Web platform globals of the sandbox (docs/host-api.md). The prelude
// calls this function once, after it has locked the realm down, with
// `call` (the bridge), `define` (a writable, configurable, non-enumerable
// global, as Web IDL makes them) and `lazy` (the same, built by a factory
// on first use: a runtime only pays for the classes its page touches). Nothing here grants authority: URL
// parsing and form encoding run in Go (internal/weburl) so that what a URL
// object says and what the broker checks agree; random bytes come from Go.
(function (call, define, lazy) {
  "use strict";
  const StringC = String;
  const TypeErrorC = TypeError;
  const PromiseC = Promise;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const O = Object;
  const isArray = Array.isArray;
  const iterSym = Symbol.iterator;
  const usv = (v) => {
    const s = StringC(v);
    return typeof s.toWellFormed === "function" ? s.toWellFormed() : s;
  };
  const isObject = (v) => v !== null && (typeof v === "object" || typeof v === "function");

  // Each group of globals is built on first use (a lazy global's getter, or
  // http.fetch), once per runtime; the glue keeps its own references, so a
  // page replacing a global changes nothing the host reads.
  const once = (f) => { let v; return () => (v === undefined ? (v = f()) : v); };

  // --- URL (WHATWG URL Standard; parsed host-side) ---
  const urlParse = (input, base) => {
    const r = parse(call("url.parse", stringify(base === undefined ? [input] : [input, base])));
    if (r.e !== undefined) return { error: r.e };
    return { c: r };
  };
  const urlSet = (href, name, value) => parse(call("url.set", href, stringify([name, value])));

  const urlGroup = once(() => {
  class URLSearchParams {
    #list = [];
    #url = null; // the URL object this belongs to, if any
    constructor(init = "") {
      if (init instanceof URLSearchParams) {
        this.#list = init.#list.map((p) => [p[0], p[1]]);
      } else if (isObject(init)) {
        const it = init[iterSym];
        if (it !== undefined && it !== null) {
          if (typeof it !== "function") throw new TypeErrorC("URLSearchParams: init is not iterable");
          for (const pair of init) {
            if (!isObject(pair) || typeof pair[iterSym] !== "function") throw new TypeErrorC("URLSearchParams: each pair must be a sequence");
            const p = [...pair];
            if (p.length !== 2) throw new TypeErrorC("URLSearchParams: each pair must have exactly two items");
            this.#list.push([usv(p[0]), usv(p[1])]);
          }
        } else {
          for (const k of Reflect.ownKeys(init)) {
            if (typeof k !== "string") continue;
            const d = O.getOwnPropertyDescriptor(init, k);
            if (d && d.enumerable) this.#list.push([usv(k), usv(init[k])]);
          }
        }
      } else {
        let s = usv(init);
        if (s[0] === "?") s = s.slice(1);
        this.#list = formParse(s);
      }
    }
    static _attach(p, url, query) { p.#url = url; p.#list = formParse(query); }
    static _reset(p, query) { p.#list = formParse(query); }
    #update() {
      if (this.#url !== null) URLState.setSearchFromParams(this.#url, formSerialize(this.#list));
    }
    get size() { return this.#list.length; }
    append(name, value) { this.#list.push([usv(name), usv(value)]); this.#update(); }
    delete(name, value) {
      name = usv(name);
      const v = value === undefined ? undefined : usv(value);
      this.#list = this.#list.filter((p) => !(p[0] === name && (v === undefined || p[1] === v)));
      this.#update();
    }
    get(name) {
      name = usv(name);
      for (const p of this.#list) if (p[0] === name) return p[1];
      return null;
    }
    getAll(name) {
      name = usv(name);
      return this.#list.filter((p) => p[0] === name).map((p) => p[1]);
    }
    has(name, value) {
      name = usv(name);
      const v = value === undefined ? undefined : usv(value);
      return this.#list.some((p) => p[0] === name && (v === undefined || p[1] === v));
    }
    set(name, value) {
      name = usv(name); value = usv(value);
      const i = this.#list.findIndex((p) => p[0] === name);
      if (i < 0) this.#list.push([name, value]);
      else {
        this.#list[i][1] = value;
        this.#list = this.#list.filter((p, j) => j <= i || p[0] !== name);
      }
      this.#update();
    }
    sort() {
      // stable, by UTF-16 code units of the names
      this.#list = this.#list.map((p, i) => [p, i]).sort((a, b) =>
        a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]).map((x) => x[0]);
      this.#update();
    }
    forEach(fn, thisArg) {
      if (typeof fn !== "function") throw new TypeErrorC("URLSearchParams.forEach: callback is not a function");
      for (let i = 0; i < this.#list.length; i++) fn.call(thisArg, this.#list[i][1], this.#list[i][0], this);
    }
    *entries() { for (let i = 0; i < this.#list.length; i++) yield [this.#list[i][0], this.#list[i][1]]; }
    *keys() { for (let i = 0; i < this.#list.length; i++) yield this.#list[i][0]; }
    *values() { for (let i = 0; i < this.#list.length; i++) yield this.#list[i][1]; }
    [iterSym]() { return this.entries(); }
    toString() { return formSerialize(this.#list); }
    get [Symbol.toStringTag]() { return "URLSearchParams"; }
  }
  const formCall = (op, arg) => {
    const r = parse(call(op, arg));
    if (r !== null && typeof r === "object" && !isArray(r) && r.e !== undefined) throw new RangeError(r.e);
    return r;
  };
  const formParse = (s) => (s === "" ? [] : formCall("form.parse", s));
  const formSerialize = (list) => (list.length === 0 ? "" : formCall("form.serialize", stringify(list)));
  const attach = URLSearchParams._attach, reset = URLSearchParams._reset;
  delete URLSearchParams._attach;
  delete URLSearchParams._reset;

  const URLState = {};
  class URL {
    #c; // components from Go: href, origin, protocol, username, …
    #q = null;
    constructor(url, base) {
      const r = urlParse(usv(url), base === undefined ? undefined : usv(base));
      if (r.error !== undefined) throw new TypeErrorC("Invalid URL: " + r.error);
      this.#c = r.c;
    }
    static canParse(url, base) {
      return urlParse(usv(url), base === undefined ? undefined : usv(base)).error === undefined;
    }
    static parse(url, base) {
      try { return new URL(url, base); } catch (e) { return null; }
    }
    static _setSearch(u, s) { u.#c = urlSet(u.#c.href, "search", s); }
    #set(name, value) {
      const c = urlSet(this.#c.href, name, usv(value));
      if (c.e !== undefined) throw new TypeErrorC("Invalid URL: " + c.e);
      this.#c = c;
      if (this.#q !== null && (name === "href" || name === "search")) reset(this.#q, c.search.slice(1));
    }
    get href() { return this.#c.href; }
    set href(v) { this.#set("href", v); }
    get origin() { return this.#c.origin; }
    get protocol() { return this.#c.protocol; }
    set protocol(v) { this.#set("protocol", v); }
    get username() { return this.#c.username; }
    set username(v) { this.#set("username", v); }
    get password() { return this.#c.password; }
    set password(v) { this.#set("password", v); }
    get host() { return this.#c.host; }
    set host(v) { this.#set("host", v); }
    get hostname() { return this.#c.hostname; }
    set hostname(v) { this.#set("hostname", v); }
    get port() { return this.#c.port; }
    set port(v) { this.#set("port", v); }
    get pathname() { return this.#c.pathname; }
    set pathname(v) { this.#set("pathname", v); }
    get search() { return this.#c.search; }
    set search(v) { this.#set("search", v); }
    get searchParams() {
      if (this.#q === null) {
        this.#q = new URLSearchParams();
        attach(this.#q, this, this.#c.search.slice(1));
      }
      return this.#q;
    }
    get hash() { return this.#c.hash; }
    set hash(v) { this.#set("hash", v); }
    toString() { return this.#c.href; }
    toJSON() { return this.#c.href; }
    get [Symbol.toStringTag]() { return "URL"; }
  }
  URLState.setSearchFromParams = URL._setSearch;
  delete URL._setSearch;
  O.freeze(URLState);
  return { URL, URLSearchParams };
  });
  lazy(["URL", "URLSearchParams"], urlGroup);

  const DOMExceptionC = DOMException;
  const domErr = (name, msg) => new DOMExceptionC(msg, name);
  const Uint8ArrayC = Uint8Array;
  const ArrayBufferC = ArrayBuffer;
  const isView = ArrayBuffer.isView;
  const fromCharCode = StringC.fromCharCode;
  const RangeErrorC = RangeError;

  // --- TextEncoder / TextDecoder (WHATWG Encoding Standard, UTF-8 only) ---
  const utf8Encode = (s) => {
    const out = [];
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate
      if (c < 0x80) out[n++] = c;
      else if (c < 0x800) { out[n++] = 0xc0 | (c >> 6); out[n++] = 0x80 | (c & 63); }
      else if (c < 0x10000) { out[n++] = 0xe0 | (c >> 12); out[n++] = 0x80 | ((c >> 6) & 63); out[n++] = 0x80 | (c & 63); }
      else { out[n++] = 0xf0 | (c >> 18); out[n++] = 0x80 | ((c >> 12) & 63); out[n++] = 0x80 | ((c >> 6) & 63); out[n++] = 0x80 | (c & 63); }
    }
    return new Uint8ArrayC(out);
  };
  const encodingGroup = once(() => {
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") { return utf8Encode(usv(input)); }
    encodeInto(source, destination) {
      if (!(destination instanceof Uint8ArrayC)) throw new TypeErrorC("TextEncoder.encodeInto: destination must be a Uint8Array");
      const s = usv(source);
      let read = 0, written = 0;
      for (let i = 0; i < s.length;) {
        const cp = s.codePointAt(i);
        const units = cp > 0xffff ? 2 : 1;
        const bytes = utf8Encode(s.slice(i, i + units));
        if (written + bytes.length > destination.length) break;
        destination.set(bytes, written);
        written += bytes.length;
        read += units;
        i += units;
      }
      return { read, written };
    }
    get [Symbol.toStringTag]() { return "TextEncoder"; }
  }
  const bytesOf = (input, what) => {
    if (input instanceof ArrayBufferC) return new Uint8ArrayC(input);
    if (isView(input)) return new Uint8ArrayC(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeErrorC(what + ": expected an ArrayBuffer or an ArrayBuffer view");
  };
  const utf8Labels = ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"];
  class TextDecoder {
    #fatal; #ignoreBOM; #pending = []; #bomSeen = false;
    constructor(label = "utf-8", options = {}) {
      const l = usv(label).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "").toLowerCase();
      if (!utf8Labels.includes(l)) throw new RangeErrorC("TextDecoder: the encoding \"" + label + "\" is not supported (the sandbox decodes utf-8 only)");
      const o = options === undefined || options === null ? {} : options;
      this.#fatal = !!o.fatal;
      this.#ignoreBOM = !!o.ignoreBOM;
    }
    get encoding() { return "utf-8"; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options) {
      const stream = !!(options && options.stream);
      const fresh = input === undefined ? new Uint8ArrayC(0) : bytesOf(input, "TextDecoder.decode");
      const bytes = this.#pending.concat(Array.from(fresh));
      this.#pending = [];
      // the UTF-8 decoder of the Encoding Standard (maximal subparts → U+FFFD)
      let out = "", need = 0, seen = 0, cp = 0, lower = 0x80, upper = 0xbf, start = 0;
      const fail = () => { if (this.#fatal) { this.#bomSeen = false; throw new TypeErrorC("TextDecoder: the data is not valid utf-8"); } out += "\ufffd"; };
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (need === 0) {
          start = i;
          if (b <= 0x7f) { out += fromCharCode(b); continue; }
          if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
          else if (b >= 0xe0 && b <= 0xef) { if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; need = 2; cp = b & 0xf; }
          else if (b >= 0xf0 && b <= 0xf4) { if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; need = 3; cp = b & 7; }
          else fail();
          continue;
        }
        if (b < lower || b > upper) {
          need = seen = cp = 0; lower = 0x80; upper = 0xbf;
          fail();
          i--; // the byte starts over
          continue;
        }
        lower = 0x80; upper = 0xbf;
        cp = (cp << 6) | (b & 0x3f);
        if (++seen === need) { out += StringC.fromCodePoint(cp); need = seen = cp = 0; }
      }
      if (need !== 0) {
        if (stream) this.#pending = bytes.slice(start);
        else fail();
      }
      if (!this.#ignoreBOM && !this.#bomSeen && out.length > 0) {
        if (out.charCodeAt(0) === 0xfeff) out = out.slice(1);
        this.#bomSeen = true;
      }
      if (!this.#ignoreBOM && !this.#bomSeen && out.length === 0 && !stream) { /* nothing yet */ }
      if (!stream) this.#bomSeen = false;
      return out;
    }
    get [Symbol.toStringTag]() { return "TextDecoder"; }
  }
  return { TextEncoder, TextDecoder };
  });
  lazy(["TextEncoder", "TextDecoder"], encodingGroup);

  // --- atob / btoa (HTML's forgiving-base64) ---
  const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  define("btoa", function btoa(data) {
    if (arguments.length === 0) throw new TypeErrorC("btoa: 1 argument required");
    const s = StringC(data);
    let out = "";
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw domErr("InvalidCharacterError", "btoa: the string has characters outside Latin-1 (encode it with TextEncoder first)");
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += b64[n >> 18] + b64[(n >> 12) & 63] + (i + 1 < s.length ? b64[(n >> 6) & 63] : "=") + (i + 2 < s.length ? b64[n & 63] : "=");
    }
    return out;
  });
  define("atob", function atob(data) {
    if (arguments.length === 0) throw new TypeErrorC("atob: 1 argument required");
    let s = StringC(data).replace(/[\t\n\f\r ]/g, "");
    if (s.length % 4 === 0) s = s.replace(/==?$/, "");
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw domErr("InvalidCharacterError", "atob: the string is not valid base64");
    let out = "", buf = 0, bits = 0;
    for (let i = 0; i < s.length; i++) {
      buf = (buf << 6) | b64.indexOf(s[i]);
      bits += 6;
      if (bits >= 8) { bits -= 8; out += fromCharCode((buf >> bits) & 255); }
    }
    return out;
  });

  // --- crypto.getRandomValues / crypto.randomUUID (bytes from Go's crypto/rand) ---
  const randomBytes = (n) => {
    const hex = call("random", StringC(n));
    const out = new Uint8ArrayC(n);
    for (let i = 0; i < n; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  };
  const integerArrays = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  const cryptoObj = O.freeze({
    getRandomValues(array) {
      if (!integerArrays.some((C) => array instanceof C)) throw domErr("TypeMismatchError", "crypto.getRandomValues: expected an integer typed array");
      if (array.byteLength > 65536) throw domErr("QuotaExceededError", "crypto.getRandomValues: at most 65536 bytes per call");
      new Uint8ArrayC(array.buffer, array.byteOffset, array.byteLength).set(randomBytes(array.byteLength));
      return array;
    },
    randomUUID() {
      const b = randomBytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      let h = "";
      for (let i = 0; i < 16; i++) h += (b[i] < 16 ? "0" : "") + b[i].toString(16);
      return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
    },
  });
  define("crypto", cryptoObj);

  // --- structuredClone (HTML structured serialization, in-realm) ---
  define("structuredClone", function structuredClone(value, options) {
    if (arguments.length === 0) throw new TypeErrorC("structuredClone: 1 argument required");
    if (options !== undefined && options !== null && options.transfer !== undefined && [...options.transfer].length > 0) {
      throw domErr("DataCloneError", "structuredClone: transfer is not supported in the sandbox");
    }
    const memo = new Map();
    const work = [];
    const cannot = (what) => domErr("DataCloneError", "structuredClone: " + what + " could not be cloned");
    const clone = (v) => {
      if (v === null || (typeof v !== "object" && typeof v !== "function")) {
        if (typeof v === "symbol") throw cannot("a Symbol");
        return v;
      }
      if (memo.has(v)) return memo.get(v);
      let out;
      if (typeof v === "function") throw cannot("a function");
      else if (isArray(v)) { out = new Array(v.length); work.push([v, out, "array"]); }
      else if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBufferC) out = v.slice(0);
      else if (isView(v)) {
        const buf = clone(v.buffer);
        out = v instanceof DataView ? new DataView(buf, v.byteOffset, v.byteLength) : new v.constructor(buf, v.byteOffset, v.length);
      }
      else if (v instanceof Map) { out = new Map(); work.push([v, out, "map"]); }
      else if (v instanceof Set) { out = new Set(); work.push([v, out, "set"]); }
      else if (v instanceof Error) {
        const C = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }[v.name] || Error;
        out = new C(v.message);
        if (typeof v.stack === "string") O.defineProperty(out, "stack", { value: v.stack, writable: true, configurable: true });
      }
      else if (v instanceof Boolean || v instanceof Number || v instanceof String || v instanceof BigInt) out = O(v.valueOf());
      else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet || v instanceof WeakRef || v instanceof urlGroup().URL || v instanceof urlGroup().URLSearchParams) throw cannot("a " + O.prototype.toString.call(v).slice(8, -1));
      else { out = {}; work.push([v, out, "object"]); }
      memo.set(v, out);
      return out;
    };
    const root = clone(value);
    while (work.length > 0) {
      const [src, dst, kind] = work.pop();
      if (kind === "array") { for (const k of O.keys(src)) dst[k] = clone(src[k]); }
      else if (kind === "map") { for (const [k, x] of src) dst.set(clone(k), clone(x)); }
      else if (kind === "set") { for (const x of src) dst.add(clone(x)); }
      else { for (const k of O.keys(src)) O.defineProperty(dst, k, { value: clone(src[k]), writable: true, enumerable: true, configurable: true }); }
    }
    return root;
  });

  // --- Headers (Fetch Standard) ---
  const tokenRe = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const normalizeValue = (v) => usv(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  const checkHeader = (name, value) => {
    if (!tokenRe.test(name)) throw new TypeErrorC("Headers: \"" + name + "\" is not a valid header name");
    if (/[\0\r\n]/.test(value)) throw new TypeErrorC("Headers: the value of " + name + " contains NUL, CR or LF");
  };
  const headersGroup = once(() => {
  class Headers {
    #list = []; // [lower-case name, value]
    #immutable = false;
    constructor(init) {
      if (init === undefined || init === null) return;
      if (!isObject(init)) throw new TypeErrorC("Headers: init must be an object, an array of pairs or a Headers");
      if (init instanceof Headers) { for (const p of init.#list) this.#list.push([p[0], p[1]]); return; }
      const it = init[iterSym];
      if (it !== undefined && it !== null) {
        for (const pair of init) {
          const p = isObject(pair) && typeof pair[iterSym] === "function" ? [...pair] : null;
          if (p === null || p.length !== 2) throw new TypeErrorC("Headers: each pair must have exactly two items");
          this.append(p[0], p[1]);
        }
        return;
      }
      for (const k of Reflect.ownKeys(init)) {
        if (typeof k !== "string") continue;
        const d = O.getOwnPropertyDescriptor(init, k);
        if (d && d.enumerable) this.append(k, init[k]);
      }
    }
    static _freeze(h) { h.#immutable = true; }
    static _list(h) { return h.#list; }
    #mutable() { if (this.#immutable) throw new TypeErrorC("Headers: these headers are immutable (a response's)"); }
    append(name, value) {
      name = usv(name); value = normalizeValue(value);
      checkHeader(name, value);
      this.#mutable();
      this.#list.push([name.toLowerCase(), value]);
    }
    delete(name) {
      name = usv(name);
      checkHeader(name, "");
      this.#mutable();
      const l = name.toLowerCase();
      this.#list = this.#list.filter((p) => p[0] !== l);
    }
    get(name) {
      name = usv(name);
      checkHeader(name, "");
      const l = name.toLowerCase();
      const vs = this.#list.filter((p) => p[0] === l).map((p) => p[1]);
      return vs.length === 0 ? null : vs.join(", ");
    }
    getSetCookie() { return this.#list.filter((p) => p[0] === "set-cookie").map((p) => p[1]); }
    has(name) {
      name = usv(name);
      checkHeader(name, "");
      const l = name.toLowerCase();
      return this.#list.some((p) => p[0] === l);
    }
    set(name, value) {
      name = usv(name); value = normalizeValue(value);
      checkHeader(name, value);
      this.#mutable();
      const l = name.toLowerCase();
      const i = this.#list.findIndex((p) => p[0] === l);
      if (i < 0) this.#list.push([l, value]);
      else { this.#list[i][1] = value; this.#list = this.#list.filter((p, j) => j <= i || p[0] !== l); }
    }
    #sorted() {
      const names = [...new Set(this.#list.map((p) => p[0]))].sort();
      const out = [];
      for (const n of names) {
        if (n === "set-cookie") { for (const v of this.getSetCookie()) out.push([n, v]); }
        else out.push([n, this.get(n)]);
      }
      return out;
    }
    forEach(fn, thisArg) {
      if (typeof fn !== "function") throw new TypeErrorC("Headers.forEach: callback is not a function");
      for (const [k, v] of this.#sorted()) fn.call(thisArg, v, k, this);
    }
    *entries() { yield* this.#sorted(); }
    *keys() { for (const p of this.#sorted()) yield p[0]; }
    *values() { for (const p of this.#sorted()) yield p[1]; }
    [iterSym]() { return this.entries(); }
    // JSON: a plain object of lower-cased names (what records and results show)
    toJSON() { const o = {}; for (const [k, v] of this.#sorted()) o[k] = v; return o; }
    get [Symbol.toStringTag]() { return "Headers"; }
  }
  const freezeHeaders = Headers._freeze, headerList = Headers._list;
  delete Headers._freeze;
  delete Headers._list;
  return { Headers, freezeHeaders, headerList };
  });
  lazy(["Headers"], headersGroup);

  // --- AbortController / AbortSignal (no EventTarget: onabort and
  //     add/removeEventListener("abort") are what fetch users need) ---
  let signalKey = null;
  const abortGroup = once(() => {
  class AbortSignal {
    #aborted = false; #reason = undefined; #listeners = []; #onabort = null;
    constructor(key) { if (key !== signalKey) throw new TypeErrorC("Illegal constructor: use new AbortController().signal"); }
    static _abort(s, reason) {
      if (s.#aborted) return;
      s.#aborted = true;
      s.#reason = reason === undefined ? domErr("AbortError", "This operation was aborted") : reason;
      const ls = s.#listeners;
      s.#listeners = [];
      const ev = { type: "abort", target: s };
      if (typeof s.#onabort === "function") { try { s.#onabort.call(s, ev); } catch (e) { reportLater(e); } }
      for (const fn of ls) { try { fn.call(s, ev); } catch (e) { reportLater(e); } }
    }
    static _is(s) { return isObject(s) && #aborted in s; }
    get aborted() { return this.#aborted; }
    get reason() { return this.#reason; }
    get onabort() { return this.#onabort; }
    set onabort(fn) { this.#onabort = typeof fn === "function" ? fn : null; }
    throwIfAborted() { if (this.#aborted) throw this.#reason; }
    addEventListener(type, fn, opts) {
      if (type !== "abort" || typeof fn !== "function") return;
      if (this.#aborted) return;
      const once = isObject(opts) && opts.once;
      const wrapped = once ? fn : fn;
      if (!this.#listeners.includes(wrapped)) this.#listeners.push(wrapped);
    }
    removeEventListener(type, fn) { if (type === "abort") this.#listeners = this.#listeners.filter((f) => f !== fn); }
    static abort(reason) { const s = newSignal(); abortSignal(s, reason); return s; }
    static timeout(ms) {
      const s = newSignal();
      setTimeout(() => abortSignal(s, domErr("TimeoutError", "The operation timed out")), ms);
      return s;
    }
    static any(signals) {
      const s = newSignal();
      const list = [...signals];
      for (const x of list) if (!isSignal(x)) throw new TypeErrorC("AbortSignal.any: every item must be an AbortSignal");
      for (const x of list) if (x.aborted) { abortSignal(s, x.reason); return s; }
      for (const x of list) x.addEventListener("abort", () => abortSignal(s, x.reason));
      return s;
    }
    get [Symbol.toStringTag]() { return "AbortSignal"; }
  }
  // An exception in an abort listener must not stop the others (nor the
  // tool): it goes to the run log, as a browser reports it to the console.
  const reportLater = (e) => {
    let m;
    try { m = e instanceof Error ? e.name + ": " + e.message : StringC(e); } catch (x) { m = "[unprintable]"; }
    call("log", "error", "Uncaught in an abort listener: " + m);
  };
  const abortSignal = AbortSignal._abort, isSignal = AbortSignal._is;
  delete AbortSignal._abort;
  delete AbortSignal._is;
  const newSignal = () => { signalKey = {}; const k = signalKey; try { return new AbortSignal(k); } finally { signalKey = null; } };
  class AbortController {
    #signal = newSignal();
    get signal() { return this.#signal; }
    abort(reason) { abortSignal(this.#signal, reason); }
    get [Symbol.toStringTag]() { return "AbortController"; }
  }
  return { AbortSignal, AbortController, abortSignal, isSignal, newSignal };
  });
  lazy(["AbortSignal", "AbortController"], abortGroup);

  // --- Request / Response (Fetch Standard shapes; bodies are text) ---
  const fetchGroup = once(() => {
  const { Headers, freezeHeaders, headerList } = headersGroup();
  // the other groups only when a request needs them
  const isSignal = (s) => abortGroup().isSignal(s);
  const newSignal = () => abortGroup().newSignal();
  const bodyText = (body, headers) => {
    if (body === undefined || body === null) return null;
    if (typeof body === "string") return body;
    if (body instanceof urlGroup().URLSearchParams) {
      if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
      return body.toString();
    }
    if (body instanceof ArrayBufferC || isView(body)) {
      return new (encodingGroup().TextDecoder)("utf-8", { fatal: true }).decode(body); // binary that is not utf-8 throws
    }
    // not in the web's fetch: any other value is sent as JSON (as http.fetch always did)
    const j = stringify(body);
    return j === undefined ? usv(body) : j;
  };
  const methods = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"];
  class Body {
    #text; #used = false;
    static _init(b, text) { b.#text = text; }
    static _text(b) { return b.#text; }
    // #take reads the body once; each reader converts it at once and
    // answers a settled promise (no further promise and job per read)
    #take() {
      if (this.#used) throw new TypeErrorC("the body has already been read");
      this.#used = true;
      return this.#text === null ? "" : this.#text;
    }
    get bodyUsed() { return this.#used; }
    text() { try { return PromiseC.resolve(this.#take()); } catch (e) { return PromiseC.reject(e); } }
    json() { try { return PromiseC.resolve(parse(this.#take())); } catch (e) { return PromiseC.reject(e); } }
    arrayBuffer() { try { return PromiseC.resolve(utf8Encode(this.#take()).buffer); } catch (e) { return PromiseC.reject(e); } }
    bytes() { try { return PromiseC.resolve(utf8Encode(this.#take())); } catch (e) { return PromiseC.reject(e); } }
  }
  const initBody = Body._init, textOf = Body._text;
  delete Body._init;
  delete Body._text;
  // readInit reads a RequestInit once: method, headers, body, signal
  // (src: the Request it copies, or null).
  const readInit = (init, src, what) => {
    const i = init === undefined || init === null ? {} : init;
    if (!isObject(i)) throw new TypeErrorC(what + ": init must be an object");
    const im = i.method, ih = i.headers, ib = i.body, is = i.signal; // each getter runs once
    const sp = src ? requestParts(src) : null;
    let m = im !== undefined ? usv(im) : sp ? sp.method : "GET";
    if (!tokenRe.test(m)) throw new TypeErrorC(what + ": \"" + m + "\" is not a valid method");
    if (methods.includes(m.toUpperCase())) m = m.toUpperCase();
    const headers = new Headers(ih !== undefined ? ih : sp ? sp.headers : undefined);
    const body = ib !== undefined ? bodyText(ib, headers) : src ? textOf(src) : null;
    if (body !== null && (m === "GET" || m === "HEAD")) throw new TypeErrorC(what + ": a " + m + " request cannot have a body");
    const sig = is !== undefined ? is : sp ? sp.signal : null;
    if (sig !== null && sig !== undefined && !isSignal(sig)) throw new TypeErrorC(what + ": signal must be an AbortSignal");
    return { method: m, headers, body, signal: sig || null };
  };
  class Request extends Body {
    #url; #method; #headers; #signal;
    constructor(input, init) {
      super();
      const src = input instanceof Request ? input : null;
      if (src) this.#url = src.#url;
      else {
        const r = urlParse(usv(input));
        if (r.error !== undefined) throw new TypeErrorC("Request: invalid URL: " + r.error);
        this.#url = r.c.href;
      }
      const r = readInit(init, src, "Request");
      this.#method = r.method;
      this.#headers = r.headers;
      initBody(this, r.body);
      this.#signal = r.signal || newSignal();
    }
    // what http.fetch and copies read: the private state, never a property
    // a page could shadow on the instance
    static _parts(r) { return { url: r.#url, method: r.#method, headers: r.#headers, signal: r.#signal }; }
    get url() { return this.#url; }
    get method() { return this.#method; }
    get headers() { return this.#headers; }
    get signal() { return this.#signal; }
    get redirect() { return "manual"; }
    clone() { return new Request(this); }
    get [Symbol.toStringTag]() { return "Request"; }
  }
  const requestParts = Request._parts;
  delete Request._parts;
  // A host response is plain data until the page looks at its headers:
  // the Headers object is built on the first read of res.headers (most
  // pages only read the status and the body).
  const fromHostKey = {};
  class Response extends Body {
    #status; #statusText; #headers; #url; #hostHeaders = null;
    constructor(body = null, init = {}) {
      super();
      if (body === fromHostKey) return; // _fromHost sets every field
      const i = init === null ? {} : init;
      const status = i.status === undefined ? 200 : +i.status;
      if (!(status >= 200 && status <= 599) || status !== (status | 0)) throw new RangeErrorC("Response: status must be 200–599");
      this.#status = status;
      this.#statusText = i.statusText === undefined ? "" : usv(i.statusText);
      this.#headers = new Headers(i.headers);
      initBody(this, bodyText(body, this.#headers));
      this.#url = "";
    }
    static json(data, init) {
      const h = new Headers(init && init.headers);
      if (!h.has("content-type")) h.set("content-type", "application/json");
      return new Response(stringify(data), { status: init && init.status, statusText: init && init.statusText, headers: h });
    }
    static _fromHost(r) {
      const res = new Response(fromHostKey);
      res.#status = r.status;
      res.#statusText = r.statusText || "";
      res.#url = r.url || "";
      initBody(res, typeof r.body === "string" ? r.body : "");
      res.#hostHeaders = r.headers && typeof r.headers === "object" ? r.headers : {};
      return res;
    }
    static #hostHeadersOf(src) {
      const h = new Headers();
      for (const k of O.keys(src)) {
        const v = StringC(src[k]);
        headerList(h).push([k.toLowerCase(), v]);
        // the old shape: res.headers["content-type"] still works
        O.defineProperty(h, k.toLowerCase(), { value: v, enumerable: true, writable: false, configurable: false });
      }
      freezeHeaders(h);
      return O.freeze(h);
    }
    get status() { return this.#status; }
    get ok() { return this.#status >= 200 && this.#status < 300; }
    get statusText() { return this.#statusText; }
    #headersNow() {
      if (this.#hostHeaders !== null) {
        this.#headers = Response.#hostHeadersOf(this.#hostHeaders);
        this.#hostHeaders = null;
      }
      return this.#headers;
    }
    get headers() { return this.#headersNow(); }
    get url() { return this.#url; }
    get redirected() { return false; }
    get type() { return "default"; }
    clone() {
      if (this.bodyUsed) throw new TypeErrorC("Response.clone: the body has already been read");
      return fromHost({ status: this.#status, statusText: this.#statusText, url: this.#url, body: textOf(this), headers: this.#headersNow().toJSON() });
    }
    get [Symbol.toStringTag]() { return "Response"; }
  }
  const fromHost = Response._fromHost;
  delete Response._fromHost;
  return { Request, Response, readInit, requestParts, fromHost, headerList };
  });
  lazy(["Request", "Response"], fetchGroup);

  return O.freeze({
    // A string URL (or anything but a Request) is converted once and
    // goes to the broker as written: fetchurl judges it, as check does.
    fetchArgs(input, init) {
      if (typeof input === "string" && (init === undefined || init === null)) {
        return { url: input, init: { method: "GET", headers: {} }, signal: null }; // the common case
      }
      const { Request, readInit, requestParts, headerList } = fetchGroup();
      const src = input instanceof Request ? input : null;
      const url = src ? requestParts(src).url : StringC(input);
      const r = readInit(init, src, "http.fetch");
      const headers = {};
      for (const [k, v] of headerList(r.headers)) headers[k] = k in headers ? headers[k] + ", " + v : v;
      const out = { method: r.method, headers };
      if (r.body !== null) out.body = r.body;
      return { url, init: out, signal: r.signal };
    },
    response: (r) => fetchGroup().fromHost(r),
    // warm builds what every http.fetch needs (Headers, Response) while the
    // runtime is prepared, off a run's critical path.
    warm: () => { fetchGroup(); },
  });
})
