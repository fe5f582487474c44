// Web platform globals of the sandbox (docs/host-api.md). The prelude
// calls this function once, after it has locked the realm down, with
// `call` (the bridge) and `define` (a writable, configurable, non-enumerable
// global, as Web IDL makes them). Nothing here grants authority: URL
// parsing and form encoding run in Go (analysis/weburl) so that what a URL
// object says and what the broker checks agree; random bytes come from Go.
(function (call, define) {
  "use strict";
  const StringC = String;
  const TypeErrorC = TypeError;
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

  // --- URL (WHATWG URL Standard; parsed host-side) ---
  const urlParse = (input, base) => {
    const r = parse(call("url.parse", stringify(base === undefined ? [input] : [input, base])));
    if (r.e !== undefined) return { error: r.e };
    return { c: r };
  };
  const urlSet = (href, name, value) => parse(call("url.set", href, stringify([name, value])));

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
  const formParse = (s) => (s === "" ? [] : parse(call("form.parse", s)));
  const formSerialize = (list) => (list.length === 0 ? "" : call("form.serialize", stringify(list)));
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
  define("URL", URL);
  define("URLSearchParams", URLSearchParams);
})
