package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestHostErrorStackAsQuickJS: a failed host call's stack is written by the
// prelude from the call sites it kept when the call was made (the text is
// only written when the call fails). Ground truth is QuickJS's own text:
// the page calls the host method and a page function that makes an Error
// from the same call expression, and the frames below the callee must be
// the same lines, for frames of every kind (methods, getters, class
// constructors, native callbacks, generators, after an await, deep
// recursion, a lowered or raised Error.stackTraceLimit, odd function
// names), for a failure answered at once (an inline method) and one
// delivered later (an async one).
func TestHostErrorStackAsQuickJS(t *testing.T) {
	fail := func(async bool) Method {
		name := "collections.get"
		if async {
			name = "http.fetch"
		}
		return Method{Name: name, Async: async, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("refused")
		}}
	}
	src := `
const results = [];
const host = (x) => HOST(x);
const fake = function fake(x) { return new Error("fake"); };
// both callees are called from this one expression
const via = (f) => f("https://refused.example/");
const probe = async (name, run) => {
  // both calls from the same frames (no await between them)
  const made = [];
  for (const f of [host, fake]) made.push(run(() => via(f)));
  const out = [];
  for (let e of made) {
    if (e && typeof e.then === "function") { try { const v = await e; e = v instanceof Error ? v : null; } catch (x) { e = x; } }
    out.push(e && typeof e.stack === "string" ? e.stack.split("\n").filter((l) => l !== "") : ["no error: " + String(e)]);
  }
  const [h, k] = out;
  // host: the prelude's two frames (hostCall, the method), host (the
  // page's arrow), via, …; fake: fake, via, …: the same from via on, as
  // far as the host error's Error.stackTraceLimit reaches
  const top = h.findIndex((l) => l.includes("page.js"));
  const hs = h.slice(top + 1), ks = k.slice(1, 1 + hs.length);
  results.push({ name, same: top === 2 && hs.join("\n") === ks.join("\n") && hs.length > 1, host: h.join("\n"), fake: k.join("\n") });
};
async function main(x) {
  await probe("direct", (c) => c());
  function named(c) { return c(); }
  await probe("named", (c) => named(c));
  class K { constructor(c) { this.v = c(); } get g() { return this.c(); } static st(c) { return c(); } m(c) { return c(); } }
  await probe("constructor", (c) => new K(c).v);
  await probe("getter", (c) => { const k = Object.create(K.prototype); k.c = c; return k.g; });
  await probe("static", (c) => K.st(c));
  await probe("method", (c) => Object.create(K.prototype).m(c));
  await probe("native callback", (c) => [1].map(() => c())[0]);
  await probe("sort callback", (c) => { let v; [2, 1].sort(() => { v = c(); return 0; }); return v; });
  function* gen(c) { yield c(); }
  await probe("generator", (c) => gen(c).next().value);
  const odd = function (c) { return c(); };
  Object.defineProperty(odd, "name", { value: "é 名前 with space" });
  await probe("odd name", (c) => odd(c));
  const empty = function (c) { return c(); };
  Object.defineProperty(empty, "name", { value: "" });
  await probe("empty name", (c) => empty(c));
  const deep = (n, c) => (n === 0 ? c() : deep(n - 1, c));
  await probe("deep, default limit", (c) => deep(20, c));
  Error.stackTraceLimit = 5;
  await probe("limit 5", (c) => deep(6, c));
  Error.stackTraceLimit = 50;
  await probe("limit 50", (c) => deep(30, c));
  Error.stackTraceLimit = 10;
  await null;
  await probe("after an await", (c) => c());
  async function later(c) { await null; return named(c); }
  await probe("async function", (c) => later(c));
  return results;
}`
	for _, async := range []bool{false, true} {
		m := fail(async)
		code := strings.ReplaceAll(src, "HOST", m.Name)
		out := engine(t).Run(context.Background(), Job{Name: "page.js", Code: page(code), Methods: []Method{m}, Timeout: 10 * time.Second})
		if !out.OK {
			t.Fatalf("%s: %+v", m.Name, out.Err)
		}
		var results []struct {
			Name       string
			Same       bool
			Host, Fake string
		}
		if err := json.Unmarshal(out.Result, &results); err != nil || len(results) != 16 {
			t.Fatalf("%s: %v %s", m.Name, err, out.Result)
		}
		for _, r := range results {
			if !r.Same {
				t.Errorf("%s, %s: the host error's stack\n%s\nis not QuickJS's\n%s", m.Name, r.Name, r.Host, r.Fake)
			}
		}
	}
}

// TestHostErrorStackWithPageHook: a page that set its own
// Error.prepareStackTrace gets it called for a host call's Error too (as
// for any Error it makes), and the prelude's own capture leaves the hook
// and Error's properties as the page set them.
func TestHostErrorStackWithPageHook(t *testing.T) {
	m := Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		return nil, errors.New("refused")
	}}
	out := run(t, `async function main() {
		const before = Object.getOwnPropertyNames(Error).join();
		try { await http.fetch("https://a.example/"); } catch (e) { if (typeof e.stack !== "string" || !e.stack.includes("page.js")) return "no stack: " + e.stack; }
		const hook = (e, cs) => "hooked:" + cs.length;
		Error.prepareStackTrace = hook;
		let stack;
		try { await http.fetch("https://a.example/"); } catch (e) { stack = e.stack; }
		return { stack, same: Error.prepareStackTrace === hook, names: Object.getOwnPropertyNames(Error).join() === before };
	}`, "", m)
	if !out.OK || string(out.Result) != `{"stack":"hooked:3","same":true,"names":true}` {
		t.Fatalf("%s %+v", out.Result, out.Err)
	}
}
