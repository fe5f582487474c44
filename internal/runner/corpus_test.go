package runner

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// TestCorpusHostsMatchAnalysis runs every tool of testdata/corpus in the
// sandbox and checks that each host the broker saw is one the static
// analysis predicts for that tool's page (or that the page has a call
// whose host the analysis reports as dynamic). Ground truth by running:
// every declared host of the corpus is answered by a loopback TLS server
// (a test-only root CA; nothing leaves the machine) with a small JSON
// body, so a tool goes on until its code needs a field the body lacks;
// the broker records every host it was asked for, refused ones too.
func TestCorpusHostsMatchAnalysis(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	cache := os.Getenv("PLUGIN_LSP_TEST_CACHE")
	if cache == "" {
		cache = "-"
	}
	root := filepath.Join("..", "..", "testdata", "corpus")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, e := range entries {
		if p, err := checker.Load(nil, filepath.Join(root, e.Name())); err == nil && e.IsDir() {
			hosts = append(hosts, capability.FromManifest(p.Manifest).Domains()...)
		}
	}
	srv, pool := corpusServer(t, hosts)
	var d net.Dialer
	secrets := func(k string) string { // a dev secret for every credential
		if strings.HasPrefix(k, "PLUGIN_SECRET_") {
			return "test-secret"
		}
		return ""
	}
	r, err := New(Config{CacheDir: cache, Env: secrets,
		Network: broker.NetworkOptions{RootCAs: pool, DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, srv.Listener.Addr().String())
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	runs, seen := 0, 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p, err := checker.Load(nil, filepath.Join(root, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range p.Manifest.Tools {
			name, _ := checker.Str(tool.Name)
			page, _ := checker.Str(tool.Page)
			rel, ok := p.ResolvePage(page)
			if !ok {
				t.Fatalf("%s: page %s missing", name, page)
			}
			pg := jspage.AnalyzeBundles([]string{rel}, func(f string) ([]byte, error) {
				c, err := checker.Clean(f)
				if err != nil || !p.Exists(c) {
					return nil, fs.ErrNotExist
				}
				b, err := p.ReadFile(c)
				if err != nil {
					return nil, err
				}
				return b.Text, nil
			})[0]
			predicted, dynamic := map[string]bool{}, false
			for _, c := range pg.Calls {
				if c.Object != "http" || c.Method != "fetch" || c.URL == nil {
					continue
				}
				for _, v := range c.URL.Values {
					host := ""
					if v.Kind != jspage.Unknown {
						if tg, _ := fetchurl.Parse(v.Value); tg.Host != "" && (v.Kind == jspage.Exact || hostComplete(v.Value)) {
							host = tg.Host
						}
					}
					if host == "" {
						dynamic = true
					} else {
						predicted[host] = true
					}
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			rec, err := r.Run(ctx, Request{Plugin: p, Tool: name, Input: sampleInput(tool), Providers: "real", Timeout: 10 * time.Second})
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			runs++
			var saw []string
			for _, f := range rec.Fetches {
				saw = append(saw, f.Host)
			}
			t.Logf("%s/%s: ok=%v, the broker saw %v", e.Name(), name, rec.OK, saw)
			for _, f := range rec.Fetches {
				if f.Host == "" {
					continue
				}
				seen++
				if !predicted[f.Host] && !dynamic {
					t.Errorf("%s/%s: the broker saw %s, the analysis predicts %v", e.Name(), name, f.Host, predicted)
				}
			}
		}
	}
	t.Logf("%d tools run, %d fetches seen by the broker", runs, seen)
	// Pages that build URLs with URL/URLSearchParams stop before their
	// first fetch until the sandbox has those globals.
	if runs < 40 || seen < 35 {
		t.Errorf("only %d runs and %d fetches: the corpus did not run", runs, seen)
	}
}

// hostComplete reports whether a known URL start ends its host.
func hostComplete(prefix string) bool {
	for i := 0; i+3 <= len(prefix); i++ {
		if prefix[i:i+3] == "://" {
			for _, c := range prefix[i+3:] {
				if c == '/' || c == '?' || c == '#' {
					return true
				}
			}
			return false
		}
	}
	return false
}

// sampleInput builds an input from the tool's schema: every required
// property gets a plain value of its type (an enum's first value).
func sampleInput(tool *checker.Tool) json.RawMessage {
	var schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
			Enum []any  `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	raw, err := json.Marshal(tool.InputSchema.Interface())
	if tool.InputSchema == nil || err != nil || json.Unmarshal(raw, &schema) != nil {
		return json.RawMessage(`{}`)
	}
	in := map[string]any{}
	for _, k := range schema.Required {
		p := schema.Properties[k]
		switch {
		case len(p.Enum) > 0:
			in[k] = p.Enum[0]
		case p.Type == "integer" || p.Type == "number":
			in[k] = 1
		case p.Type == "boolean":
			in[k] = false
		default:
			in[k] = "x"
		}
	}
	b, _ := json.Marshal(in)
	return b
}

// corpusServer is a loopback TLS server whose certificate (signed by a
// test-only CA) names every host; it answers every request with a small
// JSON object.
func corpusServer(t *testing.T, hosts []string) (*httptest.Server, *x509.CertPool) {
	srv, pool, err := tlsServer(hosts, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true,"data":[],"items":[],"files":[],"results":[],"entries":[],"hits":[]}`))
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, pool
}
