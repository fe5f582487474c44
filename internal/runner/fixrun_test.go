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

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// The typo scenario end to end: capabilities.fetch says wether.example.com,
// the page fetches weather.example.com and the credential is scoped to
// the right host. Before the fix the broker refuses the call; check --fix
// applies the one preferred fix (rename the declared entry), the plugin
// checks clean, and a run against a real provider (a loopback TLS server
// answering for *.example.com) shows the credential injected.
func TestTypoFixEndToEnd(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join("..", "..", "testdata", "plugins", "fix-domain-typo"), dir)

	var mu sync.Mutex
	var seen []string // "host Authorization" per request the server got
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Host+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"summary": "Snow, -3 °C"})
	}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	var d net.Dialer
	r, err := New(Config{
		CacheDir: cacheDir(), Spare: -1,
		Env: func(string) string { return "" },
		Network: broker.NetworkOptions{
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return d.DialContext(ctx, network, srv.Listener.Addr().String())
			},
			RootCAs: pool,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	run := func() *record.Record {
		t.Helper()
		p, err := checker.Load(nil, dir)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Run(context.Background(), Request{Plugin: p, Tool: "forecast", Input: json.RawMessage(`{"city":"Oslo"}`), Providers: "real"})
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}

	// Before: the broker refuses the host the page fetches.
	if rec := run(); rec.OK || len(rec.Fetches) != 1 || rec.Fetches[0].Refused == "" {
		t.Fatalf("before the fix the fetch should be refused: %+v", rec)
	}

	res, err := fixes.FixAll(dir, fixes.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 1 || !strings.HasPrefix(res.Applied[0].Title, `Rename "wether.example.com" to "weather.example.com"`) {
		t.Fatalf("check --fix should apply the one rename, applied %+v refused %+v", res.Applied, res.Refused)
	}
	if err := fixes.Write(dir, res); err != nil {
		t.Fatal(err)
	}
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if ds := checker.Run(p, rules.All(), nil, nil); len(ds) != 0 {
		t.Fatalf("after the fix the plugin should check clean, got %+v", ds)
	}

	rec := run()
	if !rec.OK || len(rec.Fetches) != 1 {
		t.Fatalf("after the fix the run should succeed with one fetch: %+v (error %+v)", rec, rec.Error)
	}
	if got := rec.Fetches[0].Credentials; len(got) != 1 || got[0] != "weather_key" {
		t.Errorf("the record should name the injected credential weather_key, got %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "weather.example.com Bearer dev-key" {
		t.Errorf("the server should see one request with the brokered key, saw %q", seen)
	}
}

func cacheDir() string {
	if c := os.Getenv("PLUGIN_LSP_TEST_CACHE"); c != "" {
		return c
	}
	return "-"
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		target := filepath.Join(to, rel)
		if e.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
