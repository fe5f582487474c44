package broker_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// FuzzFetch: whatever the tool sends, the broker does not panic, returns a
// *broker.Error or a response, lets through only https URLs whose host is
// allowlisted, and never shows the secret to the tool or the audit log,
// even through a provider that echoes every header back.
func FuzzFetch(f *testing.F) {
	for _, c := range refusalCases {
		f.Add(c.method, c.url, "X-A", "v")
	}
	f.Add("GET", "https://api.x.org/v1", "Authorization", "Bearer mine")
	f.Add("post", "HTTPS://API.X.ORG:443/v1?q=1#f", "x", "")
	const secret = "fuzz-secret-value"
	f.Fuzz(func(t *testing.T, method, rawURL, hname, hvalue string) {
		echo := &recordingProvider{respond: func(req *broker.Request) (*broker.Response, error) {
			var sb strings.Builder
			for k, vs := range req.Header {
				sb.WriteString(k + ": " + strings.Join(vs, ",") + "\n")
			}
			return &broker.Response{Status: 200, Header: req.Header.Clone(), Body: []byte(sb.String()), URL: req.URL}, nil
		}}
		b := broker.New(broker.Config{
			Fetch:       []broker.Capability{{Domain: "api.x.org"}, {Domain: "127.0.0.1:8443"}},
			Credentials: []broker.Credential{{Name: "k", Header: "Authorization", Format: "Bearer {{secret}}"}},
			Secrets:     mapSecrets{"k": secret},
			Provider:    echo,
		})
		resp, err := b.Fetch(context.Background(), broker.Request{Method: method, URL: rawURL, Header: http.Header{hname: {hvalue}}})
		if (resp == nil) == (err == nil) {
			t.Fatalf("resp %v err %v", resp, err)
		}
		if err != nil {
			if _, ok := err.(*broker.Error); !ok {
				t.Fatalf("error type %T", err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("secret in error %q", err)
			}
		} else {
			if strings.Contains(string(resp.Body), secret) || strings.Contains(mustJSON(t, resp.Header), secret) {
				t.Fatalf("secret handed to the tool: %q", resp.Body)
			}
		}
		for _, req := range echo.calls() {
			u, perr := url.Parse(req.URL)
			if perr != nil || !strings.EqualFold(u.Scheme, "https") || u.User != nil {
				t.Fatalf("sent %q", req.URL)
			}
			if _, r := fetchurl.NewAllowlist([]string{"api.x.org", "127.0.0.1:8443"}).Check(req.URL); r != nil {
				t.Fatalf("sent %q refused by fetchurl: %v", req.URL, r)
			}
			if got := req.Header.Values("Authorization"); len(got) != 1 || got[0] != "Bearer "+secret {
				t.Fatalf("credential not injected exactly once: %q", got)
			}
		}
		if a := mustJSON(t, b.Audit()); strings.Contains(a, secret) {
			t.Fatalf("secret in audit %s", a)
		}
	})
}

// FuzzParseFixtures: any bytes give fixtures or a positioned error, and
// the provider built from them answers or refuses without panicking.
func FuzzParseFixtures(f *testing.F) {
	f.Add([]byte(fixturesJSON))
	f.Add([]byte(`{"fnFetch": [{"url": "https://a.org", "status": "x"}]}`))
	f.Add([]byte(`{"fnFetch": [`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := fixtures.Parse(data)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, ":") || msg[0] < '0' || msg[0] > '9' {
				t.Fatalf("error without a position: %q", msg)
			}
			return
		}
		b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}, {Domain: "api.x.org"}}, Provider: broker.NewFixtureProvider(fx)})
		for _, x := range fx.FnFetch {
			b.Fetch(context.Background(), broker.Request{Method: x.Method, URL: x.URL})
		}
		b.Fetch(context.Background(), broker.Request{URL: "https://a.org/none"})
	})
}
