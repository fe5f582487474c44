package broker_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// The credentials of the reflection tests: a token in Authorization
// ("Bearer …"), a secret with every character that has an escape in
// X-Api-Key ("token …"), one outside the BMP as it is.
var reflectCreds = []broker.Credential{
	{Name: "gh_token", Header: "Authorization", Format: "Bearer {{secret}}"},
	{Name: "hairy", Header: "X-Api-Key", Format: "token {{secret}}"},
	{Name: "astral", Header: "X-Astral", Format: "{{secret}}"},
}

var reflectSecrets = map[string]string{
	"gh_token": "ghp_R3fl3ctedT0ken-91.x",
	"hairy":    `p@ss w/"q"+é\x&<y>`,
	"astral":   "k3y🔑-ünï-\U0001D11E",
}

func reflectValues() []string {
	var v []string
	for _, s := range reflectSecrets {
		v = append(v, s)
	}
	return v
}

// reflectingServer reflects the credentials it receives in every
// encoding (leakcheck.Reflect).
func reflectingServer(t *testing.T) *tlsServer {
	var headers []string
	for _, c := range reflectCreds {
		headers = append(headers, c.Header)
	}
	return newTLSServer(t, leakcheck.Reflect(headers, func(err error) { t.Error(err) }))
}

// A loopback TLS server reflects each secret in each encoding, split
// between reads, in header names and values and in the status text: the
// judge finds no form of any secret in what the tool gets, in the audit
// log, in the errors or in the fixtures `run --record` would write; each
// secret's marker is there instead.
func TestReflectedSecretsAreScrubbed(t *testing.T) {
	s := reflectingServer(t)
	rec := broker.NewRecorder()
	b := broker.New(broker.Config{
		Fetch:       []broker.Capability{{Domain: testHost, TimeoutMs: 30000}},
		Credentials: reflectCreds,
		Secrets:     mapSecrets(reflectSecrets),
		Provider:    rec.Wrap(s.provider()),
	})
	rec.SetRedactor(b.Redact)
	var seen strings.Builder
	for _, path := range []string{"/all", "/status", "/badname", "/length"} {
		resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + path})
		if err != nil {
			fmt.Fprintf(&seen, "%s: %v %#v\n", path, err, err)
			continue
		}
		fmt.Fprintf(&seen, "%s: %d %s\n", path, resp.Status, resp.URL)
		for k, vs := range resp.Header {
			fmt.Fprintf(&seen, "%s: %s\n", strings.ToLower(k), strings.Join(vs, ", "))
		}
		seen.Write(resp.Body)
		if cl := resp.Header.Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(resp.Body)) {
			t.Errorf("%s: Content-Length %s for a %d-byte body", path, cl, len(resp.Body))
		}
		resp.Release()
	}
	seen.WriteString(mustJSON(t, b.Audit()))
	seen.WriteString(mustJSON(t, rec.Fixtures()))
	all := seen.String()
	if found := leakcheck.Find([]byte(all), reflectValues()...); len(found) > 0 {
		t.Fatalf("a secret is visible (%d findings):\n%s", len(found), strings.Join(found[:min(len(found), 10)], "\n"))
	}
	for name := range reflectSecrets {
		if n := strings.Count(all, "••••("+name+")"); n < 2*len(leakcheck.Encodings) {
			t.Errorf("%d markers of %s, want one per reflection (%d and more):\n%s", n, name, 2*len(leakcheck.Encodings), all)
		}
	}
	// The judge would have seen them: the same server, through a broker
	// that knows no secret, shows each.
	raw := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: testHost}}, Provider: s.provider()})
	resp, err := raw.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/all",
		Header: http.Header{"Authorization": {"Bearer " + reflectSecrets["gh_token"]}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(leakcheck.Find(resp.Body, reflectSecrets["gh_token"])) < len(leakcheck.Encodings) {
		t.Errorf("the unscrubbed reflections do not show the token to the judge")
	}
	// The status line and the header name with a space did reach the
	// client, scrubbed.
	if !strings.Contains(all, "/status: 401") || !strings.Contains(all, "x-bearer ••••(gh_token): 1") {
		t.Errorf("the status and bad-name cases did not run as planned:\n%s", all)
	}
}
