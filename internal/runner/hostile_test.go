package runner

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// The secret of the hostile corpus (internal/runner/testdata/hostile/fixtures.json).
const hostileSecret = "sk-live-7Hq2ZxS3cr3tV4lu3"

var (
	netOnce   sync.Once
	netRunner *Runner
	netErr    error
)

// networkRunner is a Runner whose "real" provider reaches a loopback TLS
// server (a test-only dialer and root CA) that answers for *.example.com.
// Nothing leaves the machine.
func networkRunner(t testing.TB) *Runner {
	t.Helper()
	netOnce.Do(func() {
		srv, pool, err := loopbackServer()
		if err != nil {
			netErr = err
			return
		}
		addr := srv.Listener.Addr().String()
		var d net.Dialer
		cache := os.Getenv("PLUGIN_LSP_TEST_CACHE")
		if cache == "" {
			cache = "-"
		}
		netRunner, netErr = New(Config{
			CacheDir: cache,
			Env:      func(string) string { return "" },
			Network: broker.NetworkOptions{
				DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
					return d.DialContext(ctx, network, addr)
				},
				RootCAs: pool,
			},
		})
	})
	if netErr != nil {
		t.Fatal(netErr)
	}
	return netRunner
}

func loopbackServer() (*httptest.Server, *x509.CertPool, error) {
	return tlsServer([]string{"example.com", "*.example.com"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/echo"):
			w.Write([]byte("auth=" + r.Header.Get("Authorization")))
		case r.URL.Path == "/redirect":
			http.Redirect(w, r, "https://evil.com/steal", http.StatusFound)
		case r.Host == "big.example.com":
			w.Write([]byte(strings.Repeat("b", 2048)))
		case r.Host == "slow.example.com":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
}

func hostile(t testing.TB) *checker.Plugin {
	t.Helper()
	p, err := checker.Load(checker.OSFS{}, filepath.Join("testdata", "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type hostileCase struct {
	tool      string
	input     string
	real      bool          // providers "real" (the loopback server)
	timeout   time.Duration // default 10 s
	result    string        // exact compact JSON when the tool returns
	errName   string        // when it fails
	errMsg    string        // substring of the error message
	refused   []string      // the audit's refused reasons, in order ("" = sent)
	errFile   string        // mapped position of the error, when checked
	errLine   int
	logsCheck func(t *testing.T, logs []record.LogEntry)
	fetchErr  string // substring of the last audit entry's error
}

func TestHostileCorpus(t *testing.T) {
	cases := []hostileCase{
		// modules and the file system
		{tool: "import_std", errName: "CompileError", errMsg: `import "qjs:std" refused`, errFile: "code/import-std.ts", errLine: 2},
		{tool: "import_os_dynamic", errName: "CompileError", errMsg: `import "qjs:os" refused`, errFile: "code/import-os-dynamic.ts", errLine: 3},
		{tool: "import_bjson", errName: "CompileError", errMsg: `import "qjs:bjson" refused`},
		{tool: "import_computed", errName: "Error", errMsg: "Dynamic require of \"qjs:os\" is not supported"},
		{tool: "import_node", errName: "CompileError", errMsg: `import "node:fs" refused`},
		{tool: "import_escape", errName: "CompileError", errMsg: "leaves the plugin directory"},
		{tool: "function_constructor", errName: "TypeError", errMsg: "code generation from strings is disabled"},
		{tool: "async_function_constructor", errName: "TypeError", errMsg: "code generation from strings is disabled"},
		{tool: "indirect_eval", errName: "TypeError", errMsg: "code generation from strings is disabled"},
		{tool: "globals_probe", result: `[]`},
		{tool: "exit_process", errName: "ReferenceError", errMsg: "std"},
		{tool: "top_level_await", errName: "CompileError", errMsg: "top-level await does not run in the sandbox"},
		{tool: "page_missing", errName: "CompileError", errMsg: "does not exist"},
		// hosts the broker refuses (no socket is opened: fake provider, and the broker refuses first)
		{tool: "lookalike_host", errName: "Error", errMsg: "api.example.com.evil.com", refused: []string{"not-allowed"}},
		{tool: "fragment_host", errName: "Error", errMsg: "evil.com", refused: []string{"not-allowed"}},
		{tool: "userinfo_host", errName: "Error", errMsg: "user information", refused: []string{"userinfo"}},
		{tool: "ip_literal", errName: "Error", errMsg: "169.254.169.254", refused: []string{"ip-literal"}},
		{tool: "plain_http", errName: "Error", errMsg: "https", refused: []string{"not-https"}},
		{tool: "trailing_dot", errName: "Error", errMsg: "dot", refused: []string{"trailing-dot"}},
		{tool: "idn_host", errName: "Error", errMsg: "", refused: []string{"idn"}},
		{tool: "tostring_url", result: `{"status":200,"conversions":1}`, refused: []string{""}},
		{tool: "missing_fixture", errName: "Error", errMsg: "no fixture answers GET https://api.example.com/v1/nothing-here; closest fixtures: https://api.example.com/v1/items", refused: []string{"no-fixture"}},
		{tool: "fetch_limit", result: `{"ok":64,"refused":6}`},
		// the network provider against the loopback server
		{tool: "header_override", real: true, result: `"auth=Bearer ••••(api_key)"`, refused: []string{""}},
		{tool: "credential_scope", real: true, result: `"auth="`, refused: []string{""}},
		{tool: "redirect", real: true, result: `{"status":302,"location":"https://evil.com/steal"}`, refused: []string{""}},
		{tool: "oversized_body", real: true, errName: "Error", errMsg: "larger than 1024 bytes", refused: []string{""}},
		{tool: "slow_response", real: true, errName: "Error", errMsg: "timed out after 200 ms", refused: []string{""}},
		// limits
		{tool: "busy_loop", timeout: 300 * time.Millisecond, errName: "TimeoutError", errMsg: "300ms"},
		{tool: "sleep_forever", timeout: 300 * time.Millisecond, errName: "TimeoutError", errMsg: "300ms"},
		{tool: "never_settles", errName: "UnsettledError", errMsg: "never settles"},
		{tool: "memory_bomb", timeout: 30 * time.Second, errName: "InternalError", errMsg: "out of memory: the sandbox is capped at 128 MiB"},
		{tool: "recursion", errName: "RangeError", errMsg: "stack overflow"},
		{tool: "log_flood", result: `"flooded"`, logsCheck: func(t *testing.T, logs []record.LogEntry) {
			last := logs[len(logs)-1]
			if !strings.Contains(last.Message, "cap") || len(logs) < 100 {
				t.Errorf("log flood: %d entries, last %q", len(logs), last.Message)
			}
		}},
		{tool: "huge_result", errName: "RangeError", errMsg: "over the 4194304-byte cap"},
		{tool: "collections_flood", timeout: 5 * time.Minute, errName: "Error", errMsg: "capped at 8388608 bytes"}, // the cap ends it; the deadline only guards a hang
		{tool: "host_call_flood", timeout: 300 * time.Millisecond, errName: "TimeoutError", errMsg: "300ms"},
		{tool: "throw_in_timer", errName: "Error", errMsg: "boom in a timer"},
		// tampering
		{tool: "tamper_host", result: `["TypeError","TypeError","TypeError","TypeError","TypeError"]`},
		{tool: "tamper_intrinsics", result: `{"status":200}`, refused: []string{""}},
		{tool: "secret_hunt", result: `false`, refused: []string{""}},
		// ordinary cases
		{tool: "fixtures_ok", input: `{"n":2}`, result: `["one","two"]`, refused: []string{""}, logsCheck: func(t *testing.T, logs []record.LogEntry) {
			if len(logs) != 1 || logs[0].Level != "info" || logs[0].Message != "got 3 items" {
				t.Errorf("logs %+v", logs)
			}
		}},
		{tool: "parallel", result: `[1,2,3]`, refused: []string{"", "", ""}},
		{tool: "collections_crud", result: `{"removed":true,"again":false,"tagged":[{"key":"b","value":{"tag":"x","n":2}}],"one":{"tag":"y","n":3},"none":null}`},
		// web globals as a way to the broker
		{tool: "web_request_tricks", result: `{"out":["sent","TypeError: private class field '#url' does not exis","Error: fetch refused: host api.example.com.evil","TypeError: private class field '#url' does not exis"],"conversions":1}`, refused: []string{"", "not-allowed"}},
		{tool: "web_headers_tricks", real: true, result: `{"a":"auth=Bearer ••••(api_key)","b":"auth=Bearer ••••(api_key)","injected":"TypeError"}`, refused: []string{"", ""}},
		{tool: "web_abort_tricks", real: true, result: `["TypeError","TypeError","AbortError","AbortError"]`, refused: []string{""}, fetchErr: "stopped: the tool aborted it (AbortSignal)"},
		{tool: "web_url_agrees", result: `{"hostname":"api.example.com","href":"https://api.example.com/@evil.com/v1/items","sent":"no fixture answers GET https:/"}`, refused: []string{"no-fixture"}},
		{tool: "thrown_mapped", input: `{"x":5}`, errName: "RangeError", errMsg: "too big: 5", errFile: "code/thrown-mapped.ts", errLine: 4},
	}
	p := hostile(t)
	seen := map[string]bool{}
	for _, tc := range cases {
		seen[tc.tool] = true
		t.Run(tc.tool, func(t *testing.T) {
			req := Request{Plugin: p, Tool: tc.tool, Timeout: 10 * time.Second}
			if tc.timeout > 0 {
				req.Timeout = tc.timeout
			}
			if tc.input != "" {
				req.Input = json.RawMessage(tc.input)
			}
			r := sharedRunner(t)
			if tc.real {
				req.Providers = "real"
				r = networkRunner(t)
			}
			rec, err := r.Run(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			checkRecord(t, rec, tc)
			assertNoSecret(t, rec, hostileSecret)
		})
	}
	// every tool of the corpus has its outcome asserted
	for _, tl := range p.Manifest.Tools {
		name, _ := checker.Str(tl.Name)
		if !seen[name] {
			t.Errorf("tool %s of the corpus has no expected outcome", name)
		}
	}
}

func checkRecord(t *testing.T, rec *record.Record, tc hostileCase) {
	t.Helper()
	if tc.errName == "" {
		if !rec.OK || string(rec.Result) != tc.result {
			t.Fatalf("want result %s, got ok=%v %s error=%+v", tc.result, rec.OK, rec.Result, rec.Error)
		}
	} else {
		if rec.OK || rec.Error == nil || rec.Error.Name != tc.errName || !strings.Contains(rec.Error.Message, tc.errMsg) {
			t.Fatalf("want %s containing %q, got ok=%v %s error=%+v", tc.errName, tc.errMsg, rec.OK, rec.Result, rec.Error)
		}
		if tc.errFile != "" && (rec.Error.File != tc.errFile || rec.Error.Line != tc.errLine) {
			t.Errorf("error at %s:%d, want %s:%d (stack %q)", rec.Error.File, rec.Error.Line, tc.errFile, tc.errLine, rec.Error.Stack)
		}
		if strings.Contains(rec.Error.Stack, ".go:") || strings.Contains(rec.Error.Message, "goroutine") {
			t.Errorf("Go detail in the error: %+v", rec.Error)
		}
	}
	if tc.refused != nil {
		var got []string
		for _, f := range rec.Fetches {
			got = append(got, f.Refused)
		}
		if strings.Join(got, ",") != strings.Join(tc.refused, ",") || len(got) != len(tc.refused) {
			t.Errorf("audit refusals %q, want %q (%+v)", got, tc.refused, rec.Fetches)
		}
	}
	if tc.logsCheck != nil {
		tc.logsCheck(t, rec.Logs)
	}
	if tc.fetchErr != "" && (len(rec.Fetches) == 0 || !strings.Contains(rec.Fetches[len(rec.Fetches)-1].Error, tc.fetchErr)) {
		t.Errorf("want a fetch error containing %q: %+v", tc.fetchErr, rec.Fetches)
	}
}

func TestBarePluginGetsNoHostAPI(t *testing.T) {
	p, err := checker.Load(checker.OSFS{}, filepath.Join("testdata", "bare"))
	if err != nil {
		t.Fatal(err)
	}
	rec := runTool(t, p, "probe", "")
	if !rec.OK || string(rec.Result) != `{"http":"undefined","collections":"undefined","console":"function"}` {
		t.Fatalf("%s %+v", rec.Result, rec.Error)
	}
}
