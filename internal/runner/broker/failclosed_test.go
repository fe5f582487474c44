package broker_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// The corpus names hosts under good.org; here they are moved under
// example.com, which the loopback server's certificate covers.
var corpusHosts = strings.NewReplacer("api.good.org", "api.example.com", "cdn.good.org", "cdn.example.com",
	"evil.org", "evil.example.com", "api.other.net", "other.example.com", "API.Good.ORG", "API.Example.COM", "Api.Good.Org", "Api.Example.Com")

var probeHosts = []string{"api.example.com", "cdn.example.com", "evil.example.com", "other.example.com", "api.example.com:8443"}

var corpusSecrets = map[string]string{"k": "S3CRET-k-5f1c", "k2": "S3CRET-k2-77aa", "k-1": "S3CRET-dash-19e0"}

// seen is what the loopback server observed.
type seen struct {
	mu      sync.Mutex
	dialed  []string            // host[:port] asked of the dialer
	headers map[string][]string // host → every header value received
}

// TestMalformedEntriesFailClosed runs every manifest of the capability
// corpus through the broker with the real network provider on loopback.
// Ground truth is what the server saw: for every credential the model
// calls broken, its secret reaches no server and every request in its
// scope opens no connection; a host named only by a malformed fetch entry
// is never dialed; and what was dialed, with which credentials, is
// exactly what the model predicts.
func TestMalformedEntriesFailClosed(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/capabilities/*.json")
	if len(files) < 30 {
		t.Fatalf("corpus: %d manifests", len(files))
	}
	malformed := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text := []byte(corpusHosts.Replace(string(raw)))
			root, _ := jsonpos.Parse(text)
			reach := capability.FromManifest(checker.NewManifest(root))
			if strings.HasPrefix(name, "m-") {
				malformed++
			}

			sw := &seen{headers: map[string][]string{}}
			srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				sw.mu.Lock()
				for k, vs := range r.Header {
					for _, v := range vs {
						sw.headers[r.Host] = append(sw.headers[r.Host], k+": "+v)
					}
				}
				sw.mu.Unlock()
				fmt.Fprint(w, "ok")
			}))
			defer srv.Close()
			pool := x509.NewCertPool()
			pool.AddCert(srv.Certificate())
			dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
				host, port, _ := net.SplitHostPort(addr)
				if port != "443" {
					host = addr
				}
				sw.mu.Lock()
				sw.dialed = append(sw.dialed, strings.ToLower(host))
				sw.mu.Unlock()
				var d net.Dialer
				return d.DialContext(ctx, "tcp", srv.Listener.Addr().String())
			}
			b := broker.New(broker.Config{Reach: reach, Secrets: mapSecrets(corpusSecrets),
				Provider: broker.NewNetworkProvider(broker.NetworkOptions{DialContext: dial, RootCAs: pool})})
			for _, h := range probeHosts {
				_, _ = b.Fetch(context.Background(), broker.Request{URL: "https://" + h + "/probe"})
			}

			// What the model predicts.
			var wantDialed []string
			wantCreds := map[string][]string{}
			for _, h := range probeHosts {
				if _, ok := reach.FetchFor(h); !ok {
					continue
				}
				blocked := false
				for _, c := range reach.Credentials {
					if c.Broken != "" && c.AppliesTo(h) {
						blocked = true
					}
				}
				if !blocked {
					wantDialed = append(wantDialed, h)
					wantCreds[h] = reach.Injected(h)
				}
			}
			sort.Strings(wantDialed)
			gotDialed := slices.Clone(sw.dialed)
			sort.Strings(gotDialed)
			gotDialed = slices.Compact(gotDialed)
			if strings.Join(gotDialed, " ") != strings.Join(wantDialed, " ") {
				t.Errorf("dialed %v, the model predicts %v", gotDialed, wantDialed)
			}
			// Audit log: the credentials the broker says it injected.
			for _, e := range b.Audit() {
				if e.Refused != "" {
					if len(e.Credentials) != 0 {
						t.Errorf("%s refused (%s) but lists credentials %v", e.URL, e.Refused, e.Credentials)
					}
					continue
				}
				if want := wantCreds[e.Host]; strings.Join(e.Credentials, ",") != strings.Join(want, ",") {
					t.Errorf("%s: injected %v, the model predicts %v", e.URL, e.Credentials, want)
				}
			}
			// No broken credential's secret reached any server.
			all := fmt.Sprint(sw.headers)
			for _, c := range reach.Credentials {
				if c.Broken == "" {
					continue
				}
				if v := corpusSecrets[c.Name]; v != "" && strings.Contains(all, v) {
					t.Errorf("the secret of broken credential %q reached a server: %s", c.Name, all)
				}
				for _, h := range gotDialed {
					if c.AppliesTo(h) {
						t.Errorf("%s was dialed although broken credential %q applies to it", h, c.Name)
					}
				}
			}
			// A host named only by a malformed fetch entry is never dialed.
			for _, p := range reach.Problems {
				entry := string(text[p.Span.Start:p.Span.End])
				for _, h := range probeHosts {
					if strings.Contains(strings.ToLower(entry), h) && !slices.Contains(reach.Domains(), h) && slices.Contains(gotDialed, h) {
						t.Errorf("%s dialed: it is named only by the malformed entry %s", h, entry)
					}
				}
			}
		})
	}
	if malformed < 25 {
		t.Errorf("only %d malformed manifests", malformed)
	}
}
