package sandbox

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// recorder is an http.fetch host method that records what reached Go and
// answers with it; a URL containing "slow" waits for its context.
type recorder struct {
	mu        sync.Mutex
	seen      []string
	cancelled atomic.Int32
}

func (r *recorder) method() Method {
	return Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		r.mu.Lock()
		r.seen = append(r.seen, string(args[0])+" "+string(args[1]))
		r.mu.Unlock()
		var u string
		json.Unmarshal(args[0], &u)
		if len(u) > 0 && u[len(u)-4:] == "slow" {
			select {
			case <-ctx.Done():
				r.cancelled.Add(1)
				return nil, ctx.Err()
			case <-time.After(10 * time.Second):
			}
		}
		b, _ := json.Marshal(map[string]any{"status": 200, "headers": map[string]string{"x-echo": "1"}, "body": string(args[1])})
		return b, nil
	}}
}

// TestFetchWebObjects: http.fetch takes a Request, a Headers, an
// AbortSignal; what reaches Go is plain data, read once.
func TestFetchWebObjects(t *testing.T) {
	rec := &recorder{}
	out := run(t, `async function main() {
		const h = new Headers({ Accept: "application/json" });
		h.append("X-Trace", "a");
		const r1 = await http.fetch("https://a.example/1", { method: "post", headers: h, body: new URLSearchParams({ q: "a b" }) });
		const req = new Request("https://a.example/2", { method: "PUT", headers: [["X-A", "1"]], body: "raw" });
		const r2 = await http.fetch(req);
		const r3 = await http.fetch(new URL("https://a.example/3?x=1"));
		const echoed = await r1.json();
		return {
			isResponse: r1 instanceof Response, headersClass: r1.headers instanceof Headers,
			old: r1.headers["x-echo"], get: r1.headers.get("X-Echo"), echoed,
			status: [r2.status, r3.status], bodyUsed: r1.bodyUsed,
			immutable: (() => { try { r1.headers.set("a", "b"); return "mutated"; } catch (e) { return e.name; } })(),
		};
	}`, "", rec.method())
	if !out.OK {
		t.Fatalf("%+v", out.Err)
	}
	want := `{"isResponse":true,"headersClass":true,"old":"1","get":"1","echoed":{"method":"POST","headers":{"accept":"application/json","x-trace":"a","content-type":"application/x-www-form-urlencoded;charset=UTF-8"},"body":"q=a+b"},"status":[200,200],"bodyUsed":true,"immutable":"TypeError"}`
	if string(out.Result) != want {
		t.Fatalf("got  %s\nwant %s", out.Result, want)
	}
	wantSeen := []string{
		`"https://a.example/1" {"method":"POST","headers":{"accept":"application/json","x-trace":"a","content-type":"application/x-www-form-urlencoded;charset=UTF-8"},"body":"q=a+b"}`,
		`"https://a.example/2" {"method":"PUT","headers":{"x-a":"1"},"body":"raw"}`,
		`"https://a.example/3?x=1" {"method":"GET","headers":{}}`,
	}
	if len(rec.seen) != 3 {
		t.Fatalf("seen %q", rec.seen)
	}
	for i := range wantSeen {
		if rec.seen[i] != wantSeen[i] {
			t.Errorf("call %d reached Go as\n%s\nwant\n%s", i, rec.seen[i], wantSeen[i])
		}
	}
}

// TestFetchAbort: an AbortSignal rejects the fetch with its reason and
// cancels the host call's context in Go; an already aborted signal never
// reaches Go.
func TestFetchAbort(t *testing.T) {
	rec := &recorder{}
	out := run(t, `async function main() {
		const pre = await http.fetch("https://a.example/never", { signal: AbortSignal.abort("early") }).then(() => "sent", (e) => e);
		const c = new AbortController();
		const p = http.fetch("https://a.example/slow", { signal: c.signal });
		setTimeout(() => c.abort(), 20);
		const mid = await p.then(() => "done", (e) => e.name);
		const t = await http.fetch("https://a.example/slow", { signal: AbortSignal.timeout(10) }).then(() => "done", (e) => e.name);
		return { pre, mid, t };
	}`, "", rec.method())
	if !out.OK || string(out.Result) != `{"pre":"early","mid":"AbortError","t":"TimeoutError"}` {
		t.Fatalf("%s %+v", out.Result, out.Err)
	}
	if len(rec.seen) != 2 || rec.cancelled.Load() != 2 {
		t.Fatalf("Go saw %d calls (want 2: the pre-aborted one never starts), %d cancelled (want 2)", len(rec.seen), rec.cancelled.Load())
	}
}

// TestFetchHostileWebObjects: getters, Proxies and toString tricks on the
// objects http.fetch reads run once, in the sandbox; what reaches Go is
// the value read then, and a lie later changes nothing.
func TestFetchHostileWebObjects(t *testing.T) {
	rec := &recorder{}
	out := run(t, `async function main() {
		const out = {};
		// a URL whose toString answers differently each time
		let n = 0;
		const shifty = { toString() { return n++ === 0 ? "https://a.example/first" : "https://evil.example/second"; } };
		await http.fetch(shifty);
		// an init whose getters change after the first read
		let m = 0;
		const init = { get method() { return m++ === 0 ? "GET" : "DELETE"; }, get headers() { return { "X-N": String(m) }; } };
		await http.fetch("https://a.example/getters", init);
		// a Proxy as init, as headers, as signal
		const trap = new Proxy({}, { get(t, k) { return k === "headers" ? new Proxy({}, { ownKeys: () => ["X-P"], getOwnPropertyDescriptor: () => ({ value: "v", enumerable: true, configurable: true }), get: (t, k) => typeof k === "symbol" ? undefined : "v" }) : undefined; } });
		await http.fetch("https://a.example/proxy", trap);
		out.fakeSignal = await http.fetch("https://a.example/x", { signal: { aborted: true, addEventListener() {} } }).then(() => "sent", (e) => e.name);
		out.proxySignal = await http.fetch("https://a.example/x", { signal: new Proxy(new AbortController().signal, {}) }).then(() => "sent", (e) => e.name);
		out.headerInjection = await http.fetch("https://a.example/x", { headers: { "X-A": "1\r\nHost: evil.example" } }).then(() => "sent", (e) => e.name);
		out.fakeRequest = await http.fetch(Object.create(Request.prototype)).then(() => "sent", (e) => e.name);
		// replacing the globals afterwards does not reach the host
		globalThis.Headers = function () { return { evil: 1 }; };
		globalThis.Request = function () { return {}; };
		await http.fetch("https://a.example/after", { headers: { "X-Z": "z" } });
		return out;
	}`, "", rec.method())
	if !out.OK {
		t.Fatalf("%+v", out.Err)
	}
	if string(out.Result) != `{"fakeSignal":"TypeError","proxySignal":"TypeError","headerInjection":"TypeError","fakeRequest":"TypeError"}` {
		t.Fatalf("%s", out.Result)
	}
	want := []string{
		`"https://a.example/first" {"method":"GET","headers":{}}`,
		`"https://a.example/getters" {"method":"GET","headers":{"x-n":"1"}}`,
		`"https://a.example/proxy" {"method":"GET","headers":{"x-p":"v"}}`,
		`"https://a.example/after" {"method":"GET","headers":{"x-z":"z"}}`,
	}
	if len(rec.seen) != len(want) {
		t.Fatalf("seen %q", rec.seen)
	}
	for i := range want {
		if rec.seen[i] != want[i] {
			t.Errorf("call %d: %s, want %s", i, rec.seen[i], want[i])
		}
	}
}

// TestHostResponseHeadersLazy: a host response's Headers is built on the
// first read of res.headers; what the page sees is the same as when it
// was built at once: one object, frozen, immutable, carried by a clone
// made before the first read, and a page-made Response is unaffected.
func TestHostResponseHeadersLazy(t *testing.T) {
	rec := &recorder{}
	out := run(t, `async function main() {
		const r = await http.fetch("https://a.example/1");
		const c = r.clone();
		const h = r.headers;
		const own = new Response("x", { headers: { "X-Own": "2" } });
		return {
			same: h === r.headers, frozen: Object.isFrozen(h), cls: h instanceof Headers,
			clone: c.headers.get("x-echo"), cloneOld: c.headers["x-echo"], entries: [...h],
			immutable: (() => { try { h.append("a", "b"); return "mutated"; } catch (e) { return e.name; } })(),
			own: own.headers.get("x-own"), ownFrozen: Object.isFrozen(own.headers),
			keys: Object.keys(r).length,
		};
	}`, "", rec.method())
	if !out.OK {
		t.Fatalf("%+v", out.Err)
	}
	want := `{"same":true,"frozen":true,"cls":true,"clone":"1","cloneOld":"1","entries":[["x-echo","1"]],"immutable":"TypeError","own":"2","ownFrozen":false,"keys":0}`
	if string(out.Result) != want {
		t.Fatalf("got  %s\nwant %s", out.Result, want)
	}
}

// TestFetchPlainURLArgs: a plain string URL without init reaches Go as
// the same two arguments whether it takes the prelude's shortcut or the
// general path (fetchArgs, here through an empty init object), including
// characters JSON escapes; a host answer that is no response object
// rejects the fetch with a TypeError; each body reader reads once and
// answers a settled promise.
func TestFetchPlainURLArgs(t *testing.T) {
	rec := &recorder{}
	out := run(t, `async function main() {
		const u = "https://a.example/p?q=\"x\"&r=\u2028é";
		await http.fetch(u);
		await http.fetch(u, {});
		const r = await http.fetch("https://a.example/b");
		const body = await r.json();
		const again = await r.text().then(() => "read", (e) => e.name);
		return { method: body.method, again, used: r.bodyUsed };
	}`, "", rec.method())
	if !out.OK || string(out.Result) != `{"method":"GET","again":"TypeError","used":true}` {
		t.Fatalf("%s %+v", out.Result, out.Err)
	}
	if len(rec.seen) != 3 || rec.seen[0] != rec.seen[1] || rec.seen[0] != `"https://a.example/p?q=\"x\"&r=`+"\u2028"+`é" {"method":"GET","headers":{}}` {
		t.Fatalf("seen %q", rec.seen)
	}
	null := Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`null`), nil
	}}
	out = run(t, `async function main() {
		return await http.fetch("https://a.example/").then(() => "resolved", (e) => e.name);
	}`, "", null)
	if !out.OK || string(out.Result) != `"TypeError"` {
		t.Fatalf("%s %+v", out.Result, out.Err)
	}
}
