package broker_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// A secret reflected inside a compressed body cannot be recognised, so the
// broker never hands one to the page: a page's own Accept-Encoding is
// dropped (the transport asks for gzip and decodes it, and the decoded body
// is scrubbed), and a coding the server sends unasked fails the fetch.
func TestCompressedReflectionsNeverReachThePage(t *testing.T) {
	secret := reflectSecrets["gh_token"]
	var asked []string
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Header.Get("Accept-Encoding"))
		body := []byte(`{"you_sent":"` + r.Header.Get("Authorization") + `"}`)
		var buf bytes.Buffer
		switch r.URL.Path {
		case "/gzip": // what the transport asked for
			if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				w.Write(body)
				return
			}
			zw := gzip.NewWriter(&buf)
			zw.Write(body)
			zw.Close()
			w.Header().Set("Content-Encoding", "gzip")
		case "/deflate": // a coding nobody asked for
			zw, _ := flate.NewWriter(&buf, flate.BestSpeed)
			zw.Write(body)
			zw.Close()
			w.Header().Set("Content-Encoding", "deflate")
		}
		w.Write(buf.Bytes())
	}))
	b := broker.New(broker.Config{
		Fetch:       []broker.Capability{{Domain: testHost, TimeoutMs: 30000}},
		Credentials: reflectCreds[:1],
		Secrets:     mapSecrets(map[string]string{"gh_token": secret}),
		Provider:    s.provider(),
	})
	// The page asks for an identity body (so that it could read the
	// compressed bytes itself); the header is dropped, gzip is decoded.
	resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/gzip", Header: http.Header{"Accept-Encoding": {"gzip"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resp.Body), `"you_sent":"Bearer ••••(gh_token)"`) {
		t.Errorf("the gzip body is not decoded and scrubbed: %q", resp.Body)
	}
	if found := leakcheck.Find(resp.Body, secret); len(found) > 0 {
		t.Errorf("the secret reached the page: %s", found)
	}
	if got := resp.Header.Get("Content-Encoding"); got != "" {
		t.Errorf("the page sees Content-Encoding %q for a decoded body", got)
	}
	resp.Release()
	if len(asked) != 1 || asked[0] != "gzip" {
		t.Errorf("the server was asked for %q; want the transport's own gzip (the page's header dropped)", asked)
	}
	_, err = b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/deflate"})
	var be *broker.Error
	if !errors.As(err, &be) || be.Reason != broker.ReasonEncoded || !strings.Contains(be.Message, "deflate-encoded") {
		t.Fatalf("a deflate body the broker cannot search: want a %s refusal, got %v", broker.ReasonEncoded, err)
	}
	// Control: without a secret to look for, the same body is passed on.
	plain := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: testHost}}, Provider: s.provider()})
	if resp, err := plain.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/deflate"}); err != nil {
		t.Errorf("with no secret injected the deflate body is refused too: %v", err)
	} else {
		resp.Release()
	}
}
