package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// bombDeadline guards the memory bombs against a hang; the cap, not the
// clock, ends them.
const bombDeadline = 5 * time.Minute

// Each case is a page body defining main; want is the outcome: OK with an
// exact JSON result, or the error kind with a substring of the message.
func TestHostileSandbox(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		result  string // exact JSON when OK
		kind    string // error kind when not OK
		msg     string // substring of the error message
		timeout time.Duration
	}{
		{name: "globals-are-gone", src: `function main() {
			return ["std","os","bjson","print","scriptArgs","gc","navigator","__bridge","SharedArrayBuffer","Atomics","http","collections","fetch","require","process"]
				.filter(n => typeof globalThis[n] !== "undefined"); }`, result: `[]`},
		{name: "static-import-in-eval", src: `function main() { return eval("1"); }`, kind: KindThrown, msg: "code generation from strings is disabled"},
		{name: "function-constructor", src: `function main() { return (function(){}).constructor("return import('qjs:os')")(); }`, kind: KindThrown, msg: "code generation"},
		{name: "function-global", src: `function main() { return new Function("return 1")(); }`, kind: KindThrown, msg: "code generation"},
		{name: "async-function-constructor", src: `async function main() { const AF = Object.getPrototypeOf(async function(){}).constructor; return await AF("return await import('qjs:std')")(); }`, kind: KindThrown, msg: "code generation"},
		{name: "generator-constructors", src: `function main() {
			const out = [];
			for (const f of [function*(){}, async function*(){}]) { try { Object.getPrototypeOf(f).constructor("yield 1"); out.push("made"); } catch (e) { out.push(e.message.slice(0, 15)); } }
			return out; }`, result: `["code generation","code generation"]`},
		{name: "restore-constructor", src: `function main() {
			try { Object.defineProperty(Object.getPrototypeOf(function(){}), "constructor", {value: 1}); } catch (e) { return e.name; } return "redefined"; }`, result: `"TypeError"`},
		// import() reaches qjs:os at this layer: the runner's compiler
		// removes every import expression (TestCompileRefusesImports) and
		// code from strings is disabled above, so no page can write one.
		{name: "dynamic-import-is-compiled-away-not-blocked-here", src: `async function main() { const os = await import("qjs:os"); return typeof os.readdir; }`, result: `"function"`},
		{name: "timer-string", src: `function main() { setTimeout("globalThis.x = 1", 0); }`, kind: KindThrown, msg: "needs a function"},
		{name: "busy-loop", src: `function main() { for (;;) {} }`, kind: KindTimeout, timeout: 300 * time.Millisecond},
		{name: "busy-loop-in-microtask", src: `async function main() { await null; for (;;) {} }`, kind: KindTimeout, timeout: 300 * time.Millisecond},
		{name: "long-sleep", src: `function main() { return new Promise(r => setTimeout(r, 1e9)); }`, kind: KindTimeout, timeout: 300 * time.Millisecond},
		{name: "interval-forever", src: `function main() { return new Promise(() => setInterval(() => {}, 1)); }`, kind: KindTimeout, timeout: 300 * time.Millisecond},
		{name: "never-settles", src: `function main() { return new Promise(() => {}); }`, kind: KindUnsettled},
		// Timeouts fire in due order (ties in the order they were set);
		// an interval repeats until cleared. No assertion depends on how
		// late a timer fires on a loaded machine.
		{name: "timers-run-in-order", src: `function main() { const o = []; let k = 0; return new Promise(r => { const end = () => { if (o.length === 4 && k === 3) r({ t: o, i: k }); }; setTimeout(() => { o.push(3); end(); }, 30); setTimeout(() => { o.push(1); end(); }, 5); setTimeout(() => { o.push(2); end(); }, 20); setTimeout(() => { o.push("2b"); end(); }, 20); const i = setInterval(() => { if (++k === 3) { clearInterval(i); end(); } }, 4); }); }`, result: `{"t":[1,2,"2b",3],"i":3}`},
		// The bombs end on the memory cap, never on the clock: each
		// allocates a bounded amount well past the 128 MiB cap (512 MiB,
		// 256 MiB, 2^40 characters) and then returns "survived", so an
		// unenforced cap fails the test at once, and the deadline is only
		// a guard against a hang (far beyond what a loaded machine needs:
		// each costs ~0.3-0.4 s of CPU). A 64 KiB string is built once
		// and copied (memcpy), not by repeat() per object, which cost 6 s
		// of CPU and hit a 30 s deadline on a loaded machine.
		{name: "memory-bomb", src: `function main() { const a = []; for (let i = 0; i < 64; i++) a.push(new Float64Array(1 << 20)); return "survived"; }`, kind: KindMemory, timeout: bombDeadline},
		{name: "object-bomb", src: `function main() { const x = "x".repeat(1 << 16); const a = []; for (let i = 0; i < 4096; i++) a.push({ i, s: x + i }); return "survived"; }`, kind: KindMemory, timeout: bombDeadline},
		{name: "string-bomb", src: `function main() { let s = "x"; for (let i = 0; i < 40; i++) s = s + s; return "survived"; }`, kind: KindMemory, timeout: bombDeadline},
		{name: "recursion", src: `function main() { const f = (n) => f(n + 1) + 1; return f(0); }`, kind: KindStack},
		{name: "log-flood", src: `function main() { for (let i = 0; i < 2e5; i++) console.log("flood", i); return "done"; }`, result: `"done"`, timeout: 20 * time.Second},
		{name: "throws-string", src: `function main() { throw "plain"; }`, kind: KindThrown, msg: "plain"},
		{name: "throws-hostile-error", src: `function main() { const e = new Error("x"); Object.defineProperty(e, "message", {get() { throw 1; }}); throw e; }`, kind: KindThrown, msg: "unprintable"},
		{name: "result-not-json", src: `function main() { const a = {}; a.a = a; return a; }`, kind: KindThrown, msg: "not JSON"},
		{name: "result-bigint", src: `function main() { return 1n; }`, kind: KindThrown, msg: "not JSON"},
		{name: "no-default-export", src: `const x = 1;`, kind: KindThrown, msg: "no default export"},
		{name: "syntax-error", src: `function main( {`, kind: KindCompile},
		{name: "console-frozen", src: `function main() { try { console.log = () => {}; } catch (e) { return e.name; } return "replaced"; }`, result: `"TypeError"`},
		{name: "console-rebind", src: `function main() { try { globalThis.console = {}; } catch (e) { return e.name; } return "replaced"; }`, result: `"TypeError"`},
		{name: "sb-frozen", src: `function main() { try { __sb.deliver = null; } catch (e) { return e.name; } return "replaced"; }`, result: `"TypeError"`},
		{name: "undefined-result", src: `function main() {}`, kind: KindThrown, msg: "result is undefined"},
		{name: "date-and-random-work", src: `function main() { return typeof Date.now() === "number" && Math.random() < 1; }`, result: `true`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job := Job{Name: "page.js", Code: page(tc.src), Timeout: 5 * time.Second}
			if tc.timeout > 0 {
				job.Timeout = tc.timeout
			}
			out := engine(t).Run(context.Background(), job)
			if tc.kind == "" {
				if !out.OK || string(out.Result) != tc.result {
					t.Fatalf("want OK %s, got OK=%v %s err=%+v", tc.result, out.OK, out.Result, out.Err)
				}
			} else {
				if out.OK || out.Err == nil || out.Err.Kind != tc.kind || !strings.Contains(out.Err.Message, tc.msg) {
					t.Fatalf("want %s error containing %q, got OK=%v %s err=%+v", tc.kind, tc.msg, out.OK, out.Result, out.Err)
				}
			}
			if strings.Contains(string(out.Result), "goroutine") || (out.Err != nil && strings.Contains(out.Err.Message+out.Err.Stack, ".go:")) {
				t.Fatalf("Go detail leaked: %+v", out.Err)
			}
		})
	}
}

func TestFilesystemInvisible(t *testing.T) {
	// The second wall, behind "no module reachable" (which the runner's
	// compiler and the code-from-strings lock provide): even with qjs:std
	// and qjs:os in hand, which this raw layer still allows, nothing of the
	// host is visible. qjs mounts Option.CWD read-write at "/"; ours is a
	// path below a private empty directory whose parent does not exist,
	// and no environment is passed to WASI.
	cwd, _ := os.Getwd()
	out := run(t, strings.ReplaceAll(`async function main() {
		const std = await import("qjs:std");
		const os = await import("qjs:os");
		const r = {};
		r.passwd = std.loadFile("/etc/passwd");
		r.root = os.readdir("/")[0].length;
		r.cwdList = os.readdir(".")[0].length;
		r.here = std.loadFile("CWDPATH/sandbox.go");
		r.home = std.getenv("HOME") ?? null;
		r.path = std.getenv("PATH") ?? null;
		r.env = Object.keys(std.getenviron()).length;
		let f = null;
		try { f = std.open("/created-by-sandbox", "w"); } catch (e) {}
		r.write = f !== null;
		return r;
	}`, "CWDPATH", cwd), "")
	want := `{"passwd":null,"root":0,"cwdList":0,"here":null,"home":null,"path":null,"env":0,"write":false}`
	if !out.OK || string(out.Result) != want {
		t.Fatalf("got %s %+v", out.Result, out.Err)
	}
}

func TestLogCap(t *testing.T) {
	out := run(t, `function main() { for (let i = 0; i < 1e5; i++) console.log("flood", i); return 1; }`, "")
	if !out.OK || out.LogBytes > DefaultLogCapBytes || !out.LogTruncated || !strings.Contains(out.Logs[len(out.Logs)-1].Message, "cap") {
		t.Fatalf("log bytes %d truncated %v ok %v", out.LogBytes, out.LogTruncated, out.OK)
	}
}

func TestHostMethods(t *testing.T) {
	var calls, live, maxLive atomic.Int32
	slow := Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		calls.Add(1)
		n := live.Add(1)
		defer live.Add(-1)
		for {
			m := maxLive.Load()
			if n <= m || maxLive.CompareAndSwap(m, n) {
				break
			}
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		var u string
		json.Unmarshal(args[0], &u)
		if strings.Contains(u, "fail") {
			return nil, errors.New("refused: " + u)
		}
		b, _ := json.Marshal(map[string]any{"status": 200, "headers": map[string]string{"content-type": "application/json"}, "body": `{"u":"` + u + `"}`})
		return b, nil
	}}
	get := Method{Name: "collections.get", Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"got":` + string(args[1]) + `}`), nil
	}}
	out := run(t, `async function main() {
		const rs = await Promise.all([1,2,3,4,5].map(i => http.fetch("https://x/" + i)));
		const bodies = await Promise.all(rs.map(r => r.json()));
		let err = "";
		try { await http.fetch("https://x/fail"); } catch (e) { err = e.message; }
		const g = await collections.get("c", "k");
		let frozen = "";
		try { http.fetch = null; } catch (e) { frozen = e.name; }
		let missing = typeof collections.put;
		const ct = [rs[0].headers["content-type"], rs[0].headers.get("Content-Type"), rs[0].headers.has("x-nope"), JSON.stringify(rs[0].headers)];
		return { n: rs.length, ok: rs[0].ok, u: bodies[4].u, err, g, frozen, missing, ct };
	}`, "", slow, get)
	if !out.OK {
		t.Fatalf("%+v", out.Err)
	}
	want := `{"n":5,"ok":true,"u":"https://x/5","err":"refused: https://x/fail","g":{"got":"k"},"frozen":"TypeError","missing":"undefined","ct":["application/json","application/json",false,"{\"content-type\":\"application/json\"}"]}`
	if string(out.Result) != want {
		t.Fatalf("got %s", out.Result)
	}
	if maxLive.Load() != 5 || calls.Load() != 6 {
		t.Errorf("Promise.all of 5 fetches: %d ran at once (want 5), %d calls (want 6)", maxLive.Load(), calls.Load())
	}
	// a bare page gets nothing
	out = run(t, `function main() { return [typeof http, typeof collections]; }`, "")
	if string(out.Result) != `["undefined","undefined"]` {
		t.Fatalf("bare page: %s %+v", out.Result, out.Err)
	}
}

func TestNoGoroutineLeak(t *testing.T) {
	e := engine(t)
	base := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		out := e.Run(context.Background(), Job{Name: "page.js", Timeout: 20 * time.Millisecond,
			Code: page(`function main() { return new Promise(r => setTimeout(r, 1e9)); }`)})
		if out.Err == nil || out.Err.Kind != KindTimeout {
			t.Fatalf("%+v", out.Err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if n := runtime.NumGoroutine(); n > base+2 {
		t.Fatalf("goroutines %d → %d", base, n)
	}
}
