package native

import (
	"bufio"
	"context"
	"crypto/sha1"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

func needNode(t *testing.T) {
	t.Helper()
	if _, _, _, err := NodeVersion(context.Background(), "node"); err != nil {
		t.Skipf("no usable node: %v", err)
	}
}

// plugin writes a plugin with one native module declaring names.
func plugin(t *testing.T, module string, names []string, extra map[string]string) *checker.Plugin {
	t.Helper()
	dir := t.TempDir()
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	manifest := `{"name": "nt", "version": "1.0.0", "sdk": 1,
  "nativeTools": [{"module": "native/m.js", "names": [` + strings.Join(q, ", ") + `]}],
  "capabilities": {"credentials": [{"name": "api_key", "into": {"header": "Authorization", "format": "Bearer {{secret}}"}, "domains": ["api.example.org"]}]}}`
	files := map[string]string{"plugin.json": manifest, "native/m.js": module}
	for k, v := range extra {
		files[k] = v
	}
	for rel, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, req Request) *record.Record {
	t.Helper()
	if req.CacheDir == "" {
		req.CacheDir = t.TempDir()
	}
	if req.Env == nil {
		req.Env = func(string) string { return "" }
	}
	if req.Timeout == 0 {
		req.Timeout = 20 * time.Second
	}
	rec, err := Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return rec
}

func js(rec *record.Record) string {
	b, _ := json.MarshalIndent(rec, "", "  ")
	return string(b)
}

// tool builds `export const tools = {name: {requires, execute}}`.
func tool(name string, requires []string, body string) string {
	r, _ := json.Marshal(requires)
	return fmt.Sprintf(`import net from "node:net";
import tls from "node:tls";
import dgram from "node:dgram";
import http from "node:http";
import https from "node:https";
export const tools = {
  %q: {
    description: "t", inputJsonSchema: {type: "object"}, requires: %s,
    async execute(args, ctx) { %s },
  },
};
`, name, r, body)
}

// TestCtxMembers: every member exists with its capability and throws an
// Error naming the missing requires entry without it.
func TestCtxMembers(t *testing.T) {
	needNode(t)
	cases := []struct {
		cap, body, want string
	}{
		{"secrets.read", `return await ctx.secrets.get("api_key") === "dev-key-123456";`, `true`},
		{"storage.kv", `await ctx.storage.set("a", {n: 1}); const v = await ctx.storage.get("a"); await ctx.storage.delete("a"); return [v, await ctx.storage.get("a"), await ctx.storage.get("seeded")];`, `[{"n":1},null,"yes"]`},
		{"collections.read", `return [await ctx.collections.get("favs", "b1"), (await ctx.collections.query("favs", {note: "x"})).length];`, `[{"note":"x"},1]`},
		{"collections.write", `await ctx.collections.put("favs", "b2", {note: "y"}); return await ctx.collections.delete("favs", "b2");`, `true`},
		{"notify.user", `await ctx.notify("hello"); return "sent";`, `"sent"`},
	}
	member := map[string]string{"secrets.read": "secrets", "storage.kv": "storage", "collections.read": "collections", "collections.write": "collections", "notify.user": "notify"}
	fx := `{"secrets": {"api_key": "dev-key-123456"}, "collections": {"favs": {"b1": {"note": "x"}}}}`
	for _, c := range cases {
		t.Run(c.cap, func(t *testing.T) {
			reqs := []string{c.cap}
			if c.cap == "collections.write" {
				reqs = []string{"collections.write"}
			}
			p := plugin(t, tool("t.x", reqs, c.body), []string{"t.x"}, map[string]string{"fixtures.json": fx})
			rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`),
				Storage: map[string]json.RawMessage{"seeded": json.RawMessage(`"yes"`)}})
			if !rec.OK || string(rec.Result) != c.want {
				t.Fatalf("with %s: %s", c.cap, js(rec))
			}
			if c.cap == "notify.user" && (len(rec.Notifications) != 1 || rec.Notifications[0] != "hello") {
				t.Errorf("notifications: %v", rec.Notifications)
			}
			// Without it: the member throws, naming the entry.
			p = plugin(t, tool("t.x", []string{}, c.body), []string{"t.x"}, map[string]string{"fixtures.json": fx})
			rec = run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
			want := fmt.Sprintf("ctx.%s needs %q in the requires of t.x", member[c.cap], map[string]string{"collections.write": "collections.read"}[c.cap])
			if c.cap != "collections.write" {
				want = fmt.Sprintf("ctx.%s needs %q in the requires of t.x", member[c.cap], c.cap)
			}
			if rec.OK || rec.Error == nil || !strings.Contains(rec.Error.Message, want) {
				t.Fatalf("without %s: want %q: %s", c.cap, want, js(rec))
			}
		})
	}
	// collections.read alone cannot write, and says which entry is missing.
	p := plugin(t, tool("t.x", []string{"collections.read"}, `await ctx.collections.put("favs", "b", {});`), []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
	if rec.OK || !strings.Contains(rec.Error.Message, `"collections.write"`) {
		t.Fatalf("put with read only: %s", js(rec))
	}
	// The always-present members.
	p = plugin(t, tool("t.x", nil, `ctx.log("a", {b: 1}); return [typeof ctx.callId, ctx.claim.startsWith("t.x:"), ctx.signal instanceof AbortSignal, "secrets" in ctx];`), []string{"t.x"}, nil)
	rec = run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
	if !rec.OK || string(rec.Result) != `["string",true,true,false]` || len(rec.Logs) != 1 || rec.Logs[0].Message != `a {"b":1}` {
		t.Fatalf("base members: %s", js(rec))
	}
	if !strings.HasPrefix(rec.Claim, "t.x:") || rec.Lane != "native" || rec.Approval == nil {
		t.Errorf("record: %s", js(rec))
	}
}

// TestSecretsNeverInTheRecord: a module that logs, returns and throws its
// secret leaves only the marker in the record.
func TestSecretsNeverInTheRecord(t *testing.T) {
	needNode(t)
	body := `const s = await ctx.secrets.get("api_key"); console.log("key", s); process.stdout.write("raw " + s + "\n"); process.stderr.write(s + "\n");
	if (args.throw) throw new Error("bad " + s); return {s};`
	p := plugin(t, tool("t.x", []string{"secrets.read"}, body), []string{"t.x"}, nil)
	env := func(k string) string {
		if k == "PLUGIN_SECRET_NT__api_key" {
			return "s3cr3t-value-987"
		}
		return ""
	}
	for _, in := range []string{`{}`, `{"throw": true}`} {
		rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(in), Env: env})
		out := js(rec)
		if strings.Contains(out, "s3cr3t-value-987") || !strings.Contains(out, "••••(api_key)") {
			t.Fatalf("secret in the record or not used: %s", out)
		}
		if len(rec.Secrets) != 1 || rec.Secrets[0].Source != "env" {
			t.Errorf("secret audit: %v", rec.Secrets)
		}
	}
	// The environment the module sees has no PLUGIN_SECRET_ variables.
	t.Setenv("PLUGIN_SECRET_NT__api_key", "s3cr3t-value-987")
	p = plugin(t, tool("t.x", nil, `return Object.keys(process.env).filter((k) => k.startsWith("PLUGIN_SECRET"));`), []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`), Env: os.Getenv})
	if !rec.OK || string(rec.Result) != `[]` {
		t.Fatalf("process.env: %s", js(rec))
	}
}

// connectBodies open one connection of each kind to host:port (addr is
// "host:port"), resolving with what the peer answered or rejecting.
func connectBody(kind, host string, port int) string {
	switch kind {
	case "tcp":
		return fmt.Sprintf(`return await new Promise((res, rej) => { const s = net.connect(%d, %q); s.on("data", (d) => { res(String(d)); s.destroy(); }); s.on("error", rej); });`, port, host)
	case "tls":
		return fmt.Sprintf(`return await new Promise((res, rej) => { const s = tls.connect({port: %d, host: %q, rejectUnauthorized: false}); s.on("data", (d) => { res(String(d)); s.destroy(); }); s.on("error", rej); });`, port, host)
	case "udp":
		return fmt.Sprintf(`return await new Promise((res, rej) => { const s = dgram.createSocket("udp4"); s.on("message", (m) => { res(String(m)); s.close(); }); s.on("error", rej); s.send("ping", %d, %q, (e) => e && rej(e)); });`, port, host)
	case "http":
		return fmt.Sprintf(`return await new Promise((res, rej) => { http.get({host: %q, port: %d, path: "/"}, (r) => { let b = ""; r.on("data", (d) => b += d); r.on("end", () => res(b)); }).on("error", rej); });`, host, port)
	case "https":
		return fmt.Sprintf(`return await new Promise((res, rej) => { https.get({host: %q, port: %d, path: "/", rejectUnauthorized: false}, (r) => { let b = ""; r.on("data", (d) => b += d); r.on("end", () => res(b)); }).on("error", rej); });`, host, port)
	case "fetch":
		return fmt.Sprintf(`const r = await fetch("http://%s:%d/"); return await r.text();`, host, port)
	case "ws":
		return fmt.Sprintf(`return await new Promise((res, rej) => { const w = new WebSocket("ws://%s:%d/"); w.onmessage = (m) => { res(String(m.data)); w.close(); }; w.onerror = (e) => rej(new Error("websocket error: " + (e.message || e.type))); });`, host, port)
	}
	panic(kind)
}

var wantProtocol = map[string]string{"tcp": "tcp", "tls": "tls", "udp": "udp", "http": "http", "https": "https", "fetch": "http", "ws": "ws"}
var grant = map[string]string{"tcp": "network.socket", "tls": "network.socket", "udp": "network.socket", "http": "network.http", "https": "network.http", "fetch": "network.http", "ws": "network.websocket"}

// TestConnectionsRefusedUnderFake: every kind is recorded and refused
// under fake providers; the module sees an error, not a hang.
func TestConnectionsRefusedUnderFake(t *testing.T) {
	needNode(t)
	for _, kind := range []string{"tcp", "tls", "udp", "http", "https", "fetch", "ws"} {
		t.Run(kind, func(t *testing.T) {
			p := plugin(t, tool("t.x", []string{grant[kind]}, connectBody(kind, "203.0.113.7", 4444)), []string{"t.x"}, nil)
			start := time.Now()
			rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
			if rec.OK || rec.Error == nil || rec.Error.Name == "TimeoutError" {
				t.Fatalf("want a refusal error: %s", js(rec))
			}
			if len(rec.Connections) != 1 {
				t.Fatalf("want one connection: %s", js(rec))
			}
			c := rec.Connections[0]
			if c.Protocol != wantProtocol[kind] || c.Host != "203.0.113.7" || c.Port != 4444 || c.Refused != "fake-providers" {
				t.Errorf("connection: %+v", c)
			}
			if time.Since(start) > 15*time.Second {
				t.Errorf("a refusal took %s", time.Since(start))
			}
		})
	}
}

// wsServer answers a WebSocket handshake and sends one text frame.
func wsServer(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Sec-WebSocket-Key")
		h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", base64.StdEncoding.EncodeToString(h[:]))
		msg := "hello ws"
		buf.Write([]byte{0x81, byte(len(msg))})
		buf.WriteString(msg)
		buf.Flush()
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, _ = buf.ReadByte() // the client's close
	}))
	t.Cleanup(s.Close)
	return s
}

// TestRealMode: against loopback servers, what requires grants goes
// through and is recorded; without the capability it is refused as
// not-required.
func TestRealMode(t *testing.T) {
	needNode(t)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tcp.Close() })
	go func() {
		for {
			c, err := tcp.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello tcp"))
			time.AfterFunc(2*time.Second, func() { c.Close() })
		}
	}()
	tlsSrv := httptest.NewUnstartedServer(nil)
	tlsSrv.StartTLS()
	cert := tlsSrv.TLS.Certificates
	tlsSrv.Close()
	tl, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: cert})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tl.Close() })
	go func() {
		for {
			c, err := tl.Accept()
			if err != nil {
				return
			}
			go func() { c.Write([]byte("hello tls")); time.Sleep(2 * time.Second); c.Close() }()
		}
	}()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { udp.Close() })
	go func() {
		b := make([]byte, 64)
		for {
			n, from, err := udp.ReadFrom(b)
			if err != nil {
				return
			}
			udp.WriteTo(append([]byte("hello udp "), b[:n]...), from)
		}
	}()
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello http") }))
	t.Cleanup(web.Close)
	webs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello https") }))
	t.Cleanup(webs.Close)
	ws := wsServer(t)
	port := func(addr string) int {
		_, p, _ := net.SplitHostPort(addr)
		n, _ := strconv.Atoi(p)
		return n
	}
	ports := map[string]int{
		"tcp": port(tcp.Addr().String()), "tls": port(tl.Addr().String()), "udp": port(udp.LocalAddr().String()),
		"http": port(web.Listener.Addr().String()), "https": port(webs.Listener.Addr().String()),
		"fetch": port(web.Listener.Addr().String()), "ws": port(ws.Listener.Addr().String()),
	}
	want := map[string]string{"tcp": `"hello tcp"`, "tls": `"hello tls"`, "udp": `"hello udp ping"`, "http": `"hello http"`, "https": `"hello https"`, "fetch": `"hello http"`, "ws": `"hello ws"`}
	for _, kind := range []string{"tcp", "tls", "udp", "http", "https", "fetch", "ws"} {
		t.Run(kind, func(t *testing.T) {
			p := plugin(t, tool("t.x", []string{grant[kind]}, connectBody(kind, "127.0.0.1", ports[kind])), []string{"t.x"}, nil)
			rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`), Providers: "real"})
			if !rec.OK || string(rec.Result) != want[kind] {
				t.Fatalf("with %s: %s", grant[kind], js(rec))
			}
			if len(rec.Connections) != 1 || rec.Connections[0].Refused != "" || rec.Connections[0].Protocol != wantProtocol[kind] || rec.Connections[0].Port != ports[kind] {
				t.Errorf("connections: %+v", rec.Connections)
			}
			other := "storage.kv"
			p = plugin(t, tool("t.x", []string{other}, connectBody(kind, "127.0.0.1", ports[kind])), []string{"t.x"}, nil)
			rec = run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`), Providers: "real"})
			if rec.OK || len(rec.Connections) != 1 || rec.Connections[0].Refused != "not-required" {
				t.Fatalf("without %s: %s", grant[kind], js(rec))
			}
		})
	}
}

// alive reports whether pid is a live process (a zombie is not).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// TestDeadlineKillsTheGroup: a module that hangs and started a child
// process: at the deadline the record says TimeoutError and no process of
// the group is left.
func TestDeadlineKillsTheGroup(t *testing.T) {
	needNode(t)
	body := `const { spawn } = await import("node:child_process");
	const c = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
	ctx.log("pids " + process.pid + " " + c.pid);
	ctx.signal.addEventListener("abort", () => ctx.log("aborted"));
	await new Promise(() => {});`
	p := plugin(t, tool("t.x", nil, body), []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`), Timeout: 1500 * time.Millisecond})
	if rec.OK || rec.Error == nil || rec.Error.Name != "TimeoutError" {
		t.Fatalf("want TimeoutError: %s", js(rec))
	}
	var pid, child int
	for _, l := range rec.Logs {
		fmt.Sscanf(l.Message, "pids %d %d", &pid, &child)
	}
	if pid == 0 || child == 0 {
		t.Fatalf("no pids logged: %s", js(rec))
	}
	for i := 0; i < 50 && (alive(child) || alive(pid)); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) || alive(child) {
		t.Fatalf("a process of the group is left: harness %d %v, child %d %v", pid, alive(pid), child, alive(child))
	}
	if err := syscall.Kill(-pid, 0); err == nil {
		// only zombies may remain, waiting for their reaper
		out, _ := exec.Command("ps", "-o", "pid,stat,cmd", "-g", strconv.Itoa(pid)).CombinedOutput()
		if strings.Contains(string(out), "setInterval") && !strings.Contains(string(out), " Z") {
			t.Fatalf("process group %d still has members:\n%s", pid, out)
		}
	}
}

// TestDeadlineWhileLoading: a module that never finishes loading (an
// await at its top that never settles) ends at the loading deadline, with
// the group.
func TestDeadlineWhileLoading(t *testing.T) {
	needNode(t)
	mod := "await new Promise(() => {});\n" + tool("t.x", nil, `return 1;`)
	p := plugin(t, mod, []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`), Timeout: time.Minute, LoadTimeout: time.Second})
	if rec.OK || rec.Error == nil || rec.Error.Name != "TimeoutError" || !strings.Contains(rec.Error.Message, "did not load within 1s") {
		t.Fatalf("want a TimeoutError while loading: %s", js(rec))
	}
}

// TestMemoryCap: a module that allocates without end is a MemoryError.
func TestMemoryCap(t *testing.T) {
	needNode(t)
	p := plugin(t, tool("t.x", nil, `const a = []; for (;;) a.push(new Array(1e5).fill({x: Math.random()}));`), []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`), MemoryCapBytes: 32 << 20})
	if rec.OK || rec.Error == nil || rec.Error.Name != "MemoryError" || !strings.Contains(rec.Error.Message, "32 MiB") {
		t.Fatalf("want MemoryError: %s", js(rec))
	}
}

// TestHugeOutputCapped: megabytes on stdout, stderr and console are cut at
// the log cap, and the run still returns.
func TestHugeOutputCapped(t *testing.T) {
	needNode(t)
	body := `const big = "x".repeat(1 << 20); for (let i = 0; i < 8; i++) { process.stdout.write(big + "\n"); process.stderr.write(big + "\n"); console.log(big); } return "done";`
	p := plugin(t, tool("t.x", nil, body), []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
	if !rec.OK || string(rec.Result) != `"done"` {
		t.Fatalf("run: %s", js(rec)[:min(2000, len(js(rec)))])
	}
	total := 0
	for _, l := range rec.Logs {
		total += len(l.Message)
	}
	if total > LogCapBytes+1024 {
		t.Errorf("logs hold %d bytes, cap %d", total, LogCapBytes)
	}
	if last := rec.Logs[len(rec.Logs)-1]; !strings.Contains(last.Message, "truncated") {
		t.Errorf("no truncation note: %q", checker.Clip(last.Message, 100))
	}
	if rec.Usage.LogBytes <= LogCapBytes {
		t.Errorf("usage.logBytes %d does not count what was cut", rec.Usage.LogBytes)
	}
}

// TestModuleErrors: a module that throws at import, one that is not ESM,
// an undeclared export, a declared name the module does not export, an
// input that fails the schema, and a stack that lands on the module's line.
func TestModuleErrors(t *testing.T) {
	needNode(t)
	p := plugin(t, "throw new TypeError('boom at import');\nexport const tools = {};\n", []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
	if rec.OK || rec.Error.Name != "ImportError" || !strings.Contains(rec.Error.Message, "TypeError: boom at import") || rec.Error.File != "native/m.js" || rec.Error.Line != 1 {
		t.Fatalf("throws at import: %s", js(rec))
	}
	p = plugin(t, "module.exports = { tools: { 't.x': { execute() { return 1; } } } };\n", []string{"t.x"}, nil)
	rec = run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
	if rec.OK || rec.Error.Name != "ModuleError" || !strings.Contains(rec.Error.Message, "CommonJS") {
		t.Fatalf("CommonJS: %s", js(rec))
	}
	mod := tool("t.x", nil, `return 1;`) + "export const more = 1;\ntools['t.hidden'] = { execute() { return 'ran'; } };\n"
	p = plugin(t, mod, []string{"t.x", "t.missing"}, nil)
	if _, err := Run(context.Background(), Request{Plugin: p, Tool: "t.hidden", CacheDir: t.TempDir()}); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("an undeclared export ran: %v", err)
	}
	rec = run(t, Request{Plugin: p, Tool: "t.missing", Input: json.RawMessage(`{}`)})
	if rec.OK || rec.Error.Name != "ToolError" || !strings.Contains(rec.Error.Message, `"t.missing"`) {
		t.Fatalf("declared, not exported: %s", js(rec))
	}
	schemaMod := `export const tools = { "t.x": { inputJsonSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], examples: [{ n: 2 }] },
  needsApproval: (args) => args.n > 1,
  async execute(args) {
    if (args.n > 5) throw new RangeError("too big");
    return args.n * 2;
  } } };
`
	p = plugin(t, schemaMod, []string{"t.x"}, nil)
	rec = run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{"n": "two"}`)})
	if rec.OK || rec.Error.Name != "InputError" || len(rec.Error.Violations) == 0 {
		t.Fatalf("input: %s", js(rec))
	}
	rec = run(t, Request{Plugin: p, Tool: "t.x"}) // examples[0]
	if !rec.OK || string(rec.Result) != "4" || rec.Approval == nil || !rec.Approval.Required {
		t.Fatalf("example input, approval: %s", js(rec))
	}
	rec = run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{"n": 1}`)})
	if !rec.OK || rec.Approval.Required {
		t.Fatalf("approval false: %s", js(rec))
	}
	rec = run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{"n": 9}`)})
	if rec.OK || rec.Error.Name != "RangeError" || rec.Error.File != "native/m.js" || rec.Error.Line != 4 || strings.Contains(rec.Error.Stack, "harness") {
		t.Fatalf("stack: %s", js(rec))
	}
}

// TestSourceMap: a compiled module with a source map: the error lands on
// the TypeScript source's line.
func TestSourceMap(t *testing.T) {
	needNode(t)
	// What tsc emits for src/m.ts (the throw is on line 4 of the source).
	compiled := `export const tools = {
    "t.x": { execute(args) { fail(); } },
};
function fail() {
    throw new Error("from ts");
}
//# sourceMappingURL=m.js.map
`
	sm := `{"version":3,"file":"m.js","sourceRoot":"","sources":["../src/m.ts"],"names":[],"mappings":"AAAA,MAAM,CAAC,MAAM,KAAK,GAAG;IACnB,KAAK,EAAE,EAAE,OAAO,CAAC,IAAS,IAAU,IAAI,EAAE,CAAC,CAAC,CAAC,EAAE;CAChD,CAAC;AACF,SAAS,IAAI;IAEX,MAAM,IAAI,KAAK,CAAC,SAAS,CAAC,CAAC;AAC7B,CAAC"}`
	src := "export const tools = {\n  \"t.x\": { execute(args: unknown): never { fail(); } },\n};\nfunction fail(): never {\n  // comment\n  throw new Error(\"from ts\");\n}\n"
	p := plugin(t, compiled, []string{"t.x"}, map[string]string{"native/m.js.map": sm, "src/m.ts": src})
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
	if rec.OK || rec.Error.File != "src/m.ts" || rec.Error.Line != 6 {
		t.Fatalf("want src/m.ts:6: %s", js(rec))
	}
}

// TestNodeMissingOrOld: --node /nonexistent and a node that says v18.
func TestNodeMissingOrOld(t *testing.T) {
	p := plugin(t, tool("t.x", nil, "return 1;"), []string{"t.x"}, nil)
	_, err := Run(context.Background(), Request{Plugin: p, Tool: "t.x", Node: "/nonexistent/node", CacheDir: t.TempDir()})
	var ne *NodeError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "/nonexistent/node could not be run") {
		t.Fatalf("missing node: %v", err)
	}
	fake := filepath.Join(t.TempDir(), "node")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho v18.19.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Request{Plugin: p, Tool: "t.x", Node: fake, CacheDir: t.TempDir()})
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "is v18.19.0") || !strings.Contains(err.Error(), ">= 20") {
		t.Fatalf("old node: %v", err)
	}
}

// TestFileReadsConfined: Node's permission model keeps reads inside the
// plugin directory (where the Node version has it).
func TestFileReadsConfined(t *testing.T) {
	needNode(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("secret file"), 0o644)
	body := fmt.Sprintf(`const fs = await import("node:fs"); const inside = fs.readFileSync(new URL("../plugin.json", import.meta.url), "utf8").length > 0;
	let out; try { fs.readFileSync(%q, "utf8"); out = "read"; } catch (e) { out = e.code; } return [inside, out];`, outside)
	p := plugin(t, tool("t.x", nil, body), []string{"t.x"}, nil)
	rec := run(t, Request{Plugin: p, Tool: "t.x", Input: json.RawMessage(`{}`)})
	if !rec.OK || string(rec.Result) != `[true,"ERR_ACCESS_DENIED"]` {
		t.Fatalf("reads: %s", js(rec))
	}
}

var _ = bufio.NewReader

// TestApprovalDefault: a tool without needsApproval needs approval, as the
// review card and the lock file say ("always"); false and a function of
// the arguments are what they say.
func TestApprovalDefault(t *testing.T) {
	needNode(t)
	for _, c := range []struct {
		def  string
		want bool
	}{
		{``, true},
		{`needsApproval: false,`, false},
		{`needsApproval: true,`, true},
		{`needsApproval: () => false,`, false},
		{`needsApproval: 0,`, false},
	} {
		mod := `export const tools = { "t.x": { description: "t", ` + c.def + ` execute() { return 1; } } };` + "\n"
		rec := run(t, Request{Plugin: plugin(t, mod, []string{"t.x"}, nil), Tool: "t.x", Input: json.RawMessage(`{}`)})
		if !rec.OK || rec.Approval == nil || rec.Approval.Required != c.want {
			t.Errorf("%q: want required %v: %s", c.def, c.want, js(rec))
		}
	}
}
