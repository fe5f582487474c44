package main

import (
	"bytes"
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

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

const recordSecret = "live-KEY-7f3a9c1e55"

// A loopback TLS server playing the real API: it checks the injected
// credential and echoes it back in a body, a header and a token-shaped
// field, the worst a real API can do.
func recordServer(t *testing.T) (*httptest.Server, runnerFactory) {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+recordSecret {
			w.WriteHeader(401)
			return
		}
		switch r.URL.Path {
		case "/v1/books":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Internal-Trace", "do-not-record")
			w.Header().Set("Set-Cookie", "session=abc")
			json.NewEncoder(w).Encode(map[string]any{
				"title":      "Dune",
				"echo":       r.Header.Get("Authorization"),
				"sessionJwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl",
				"q":          r.URL.Query().Get("q"),
			})
		case "/v1/big":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte(strings.Repeat("x", broker.MaxRecordedBody+100)))
		default:
			w.WriteHeader(404)
			w.Write([]byte("no such book"))
		}
	}))
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	addr := srv.Listener.Addr().String()
	var once sync.Once
	var r *runner.Runner
	var rerr error
	factory := func() (runner.ToolRunner, func(), error) {
		once.Do(func() {
			var d net.Dialer
			// The real key comes from the environment, as in CI.
			env := func(k string) string {
				if k == "PLUGIN_SECRET_REC__key" {
					return recordSecret
				}
				return ""
			}
			r, rerr = runner.New(runner.Config{CacheDir: "-", Spare: -1, Env: env,
				Network: broker.NetworkOptions{
					DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
						return d.DialContext(ctx, network, addr)
					},
					RootCAs: pool,
				}})
		})
		return r, func() {}, rerr
	}
	t.Cleanup(func() {
		if r != nil {
			r.Close()
		}
	})
	return srv, factory
}

func TestRunRecordAppendsFixtures(t *testing.T) {
	_, factory := recordServer(t)
	dir := t.TempDir()
	files := map[string]string{
		"plugin.json": `{
  "name": "rec", "version": "1.0.0",
  "tools": [{ "name": "find", "page": "code/find" }],
  "capabilities": {
    "host": ["http.fetch"],
    "fetch": ["api.example.com"],
    "credentials": [{ "name": "key", "into": { "header": "Authorization", "format": "Bearer {{secret}}" } }]
  }
}`,
		"code/find.ts": `export default async function find(input: { q: string }) {
  const a = await http.fetch("https://api.example.com/v1/books?q=" + input.q + "&lang=en");
  const again = await http.fetch("https://api.example.com/v1/books?q=" + input.q + "&lang=en");
  const missing = await http.fetch("https://api.example.com/v1/nope");
  const big = await http.fetch("https://api.example.com/v1/big");
  return { title: (await a.json()).title, again: again.status, missing: missing.status, big: (await big.text()).length };
}
`,
		"fixtures.json": "{\n  \"fnFetch\": [\n    { \"url\": \"https://api.example.com/v1/nope\", \"status\": 404, \"body\": \"kept as it was\" }\n  ]\n}\n",
	}
	for name, text := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	var out, errb bytes.Buffer
	code := runCommand([]string{"--providers", "real", "--record", "--input", `{"q":"dune"}`, dir, "find"}, &out, &errb, factory)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "recorded 2 fixture(s)") || !strings.Contains(errb.String(), "(1 fetch(es) already had one)") {
		t.Errorf("stderr: %s", errb.String())
	}
	data, _ := os.ReadFile(filepath.Join(dir, "fixtures.json"))
	text := string(data)
	if strings.Contains(text, recordSecret) || strings.Contains(text, "eyJhbGciOiJIUzI1NiJ9") || strings.Contains(text, "do-not-record") || strings.Contains(text, "session=abc") {
		t.Errorf("a secret or an unselected header was written:\n%s", checker.Clip(text, 3000))
	}
	for _, want := range []string{`"echo": "Bearer ••••(key)"`, `"sessionJwt": "••••(a JWT)"`, `"url": "https://api.example.com/v1/books?q=dune&lang=en"`, `"Content-Type": "application/json"`, `"kept as it was"`, `recorded body cut at 65536 of 65636 bytes`} {
		if !strings.Contains(text, want) {
			t.Errorf("fixtures.json lacks %s:\n%s", want, checker.Clip(text, 3000))
		}
	}
	f, err := fixtures.Parse(data)
	if err != nil || len(f.FnFetch) != 3 || f.FnFetch[1].Method != "GET" || f.FnFetch[1].Status != 200 {
		t.Fatalf("recorded file: %v %+v", err, f)
	}
	// The recorded fixtures answer the same run with fake providers.
	var outFake, errFake bytes.Buffer
	if code := runCommand([]string{"--input", `{"q":"dune"}`, dir, "find"}, &outFake, &errFake, factory); code != 0 || !strings.Contains(outFake.String(), `"title": "Dune"`) || !strings.Contains(outFake.String(), `"source": "fixture"`) {
		t.Errorf("fake run on the recorded fixtures: exit %d\n%s\n%s", code, checker.Clip(outFake.String(), 3000), errFake.String())
	}
	// Recording again adds nothing.
	errb.Reset()
	out.Reset()
	if code := runCommand([]string{"--providers", "real", "--record", "--input", `{"q":"dune"}`, dir, "find"}, &out, &errb, factory); code != 0 || !strings.Contains(errb.String(), "recorded 0 fixture(s)") {
		t.Errorf("second record: %d %s %s", code, errb.String(), checker.Clip(out.String(), 2000))
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "fixtures.json")); !bytes.Equal(again, data) {
		t.Error("a second recording changed fixtures.json")
	}
	if code, _, stderr := runCLI("--record", dir, "find"); code != 2 || !strings.Contains(stderr, "--providers real") {
		t.Errorf("--record without real providers: %d %s", code, stderr)
	}
}
