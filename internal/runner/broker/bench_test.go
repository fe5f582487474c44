package broker_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// BenchmarkFetchFixture: one allowed fetch through the broker, with a
// credential injected, answered by the fixture provider.
func BenchmarkFetchFixture(b *testing.B) {
	f, err := broker.LoadFixtures("../../../testdata/example/books/fixtures.json")
	if err != nil {
		b.Fatal(err)
	}
	cfg := broker.Config{
		Fetch:       []broker.Capability{{Domain: "api.openlibrary.org"}, {Domain: "covers.openlibrary.org"}},
		Credentials: []broker.Credential{{Name: "openlibrary_key", Header: "Authorization", Format: "Bearer {{secret}}", Domains: []string{"api.openlibrary.org"}}},
		Secrets:     broker.SecretStore("test", f, nil),
		Provider:    broker.NewFixtureProvider(f),
	}
	req := broker.Request{URL: "https://api.openlibrary.org/isbn/9780261103344.json"}
	ctx := context.Background()
	brk := broker.New(cfg)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%64 == 0 { // a run makes at most 64 fetches
			brk = broker.New(cfg)
		}
		if _, err := brk.Fetch(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNew: building the broker of one run.
func BenchmarkNew(b *testing.B) {
	f, _ := broker.LoadFixtures("../../../testdata/example/books/fixtures.json")
	cfg := broker.Config{
		Fetch:       []broker.Capability{{Domain: "api.openlibrary.org"}, {Domain: "covers.openlibrary.org"}},
		Credentials: []broker.Credential{{Name: "openlibrary_key", Header: "Authorization", Format: "Bearer {{secret}}", Domains: []string{"api.openlibrary.org"}}},
		Secrets:     broker.SecretStore("test", f, nil),
		Provider:    broker.NewFixtureProvider(f),
	}
	b.ReportAllocs()
	for b.Loop() {
		broker.New(cfg)
	}
}

// BenchmarkFetchNetworkLoopback: one allowed fetch through the broker and
// the network provider to a loopback TLS server. Connections are not kept
// alive, so this includes a TCP connect and a TLS handshake.
func BenchmarkFetchNetworkLoopback(b *testing.B) {
	s := &tlsServer{srv: httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok":true}`) }))}
	defer s.srv.Close()
	cfg := broker.Config{Fetch: []broker.Capability{{Domain: testHost}}, Provider: s.provider()}
	req := broker.Request{URL: "https://" + testHost + "/"}
	brk := broker.New(cfg)
	for i := 0; b.Loop(); i++ {
		if i%64 == 0 {
			brk = broker.New(cfg)
		}
		if _, err := brk.Fetch(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchFixture10k: the same fetch answered from a fixtures file of
// 10,000 entries (a recorded API): the lookup is by canonical URL.
func BenchmarkFetchFixture10k(b *testing.B) {
	f := &broker.Fixtures{}
	for i := range 10000 {
		f.FnFetch = append(f.FnFetch, broker.Fixture{URL: fmt.Sprintf("https://api.openlibrary.org/isbn/%d.json?lang=en&fields=title", 9780000000000+i), Status: 200, Body: []byte(`{"title":"x"}`)})
	}
	cfg := broker.Config{Fetch: []broker.Capability{{Domain: "api.openlibrary.org"}}, Provider: broker.NewFixtureProvider(f)}
	req := broker.Request{URL: "https://api.openlibrary.org/isbn/9780000009999.json?fields=title&lang=en"}
	brk := broker.New(cfg)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%64 == 0 {
			brk = broker.New(cfg)
		}
		if _, err := brk.Fetch(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
