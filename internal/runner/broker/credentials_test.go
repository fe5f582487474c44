package broker_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

const (
	olSecret    = "dev-ol-4f9c2e7a1b"
	coverSecret = "cov-77aa"
)

func credConfig(p broker.Provider, s broker.Secrets) broker.Config {
	return broker.Config{
		Fetch: []broker.Capability{{Domain: "api.openlibrary.org"}, {Domain: "covers.openlibrary.org"}, {Domain: "other.org"}},
		Credentials: []broker.Credential{
			{Name: "openlibrary_key", Header: "Authorization", Format: "Bearer {{secret}}", Domains: []string{"api.openlibrary.org"}},
			{Name: "cover_key", Header: "x-cover-key", Format: "{{secret}}", Domains: []string{"COVERS.openlibrary.org"}},
		},
		Secrets:  s,
		Provider: p,
	}
}

func TestCredentialsInjectedAndScoped(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(credConfig(p, mapSecrets{"openlibrary_key": olSecret, "cover_key": coverSecret}))
	ctx := context.Background()
	// The tool sets its own Authorization in lower case: overwritten.
	tool := http.Header{"authorization": {"Bearer stolen?"}, "Accept": {"application/json"}}
	if _, err := b.Fetch(ctx, broker.Request{URL: "https://api.openlibrary.org/isbn/1.json", Header: tool}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Fetch(ctx, broker.Request{URL: "https://covers.openlibrary.org/b/1.json"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Fetch(ctx, broker.Request{URL: "https://other.org/x", Header: http.Header{"Authorization": {"Basic mine"}}}); err != nil {
		t.Fatal(err)
	}
	calls := p.calls()
	wantHeaders := []http.Header{
		{"Authorization": {"Bearer " + olSecret}, "Accept": {"application/json"}},
		{"X-Cover-Key": {coverSecret}},
		{"Authorization": {"Basic mine"}},
	}
	for i, want := range wantHeaders {
		if !reflect.DeepEqual(calls[i].Header, want) {
			t.Errorf("request %d sent headers %v, want %v", i, calls[i].Header, want)
		}
	}
	if want := (http.Header{"authorization": {"Bearer stolen?"}, "Accept": {"application/json"}}); !reflect.DeepEqual(tool, want) {
		t.Errorf("the tool's header map was modified: %v", tool)
	}
	gotNames := [][]string{}
	for _, e := range b.Audit() {
		gotNames = append(gotNames, e.Credentials)
	}
	if want := [][]string{{"openlibrary_key"}, {"cover_key"}, {}}; !reflect.DeepEqual(gotNames, want) {
		t.Errorf("audit credential names %v, want %v", gotNames, want)
	}
	audit := mustJSON(t, b.Audit())
	if strings.Contains(audit, olSecret) || strings.Contains(audit, coverSecret) {
		t.Fatalf("a secret value is in the audit log: %s", audit)
	}
	if !strings.Contains(audit, `"credentials":[]`) {
		t.Errorf("an entry without credentials should print \"credentials\":[]: %s", audit)
	}
}

// A credential without domains applies to every allowed domain; when two
// credentials set the same header, the later one is sent and named.
func TestCredentialsUnscopedAndShared(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(broker.Config{
		Fetch: []broker.Capability{{Domain: "a.org"}, {Domain: "b.org"}},
		Credentials: []broker.Credential{
			{Name: "first", Header: "X-Key", Format: "{{secret}}"},
			{Name: "trace", Header: "X-Trace", Format: "t={{secret}};"},
			{Name: "second", Header: "x-key", Format: "k {{secret}}", Domains: []string{"b.org"}},
		},
		Secrets:  mapSecrets{"first": "S1", "second": "S2", "trace": "S3"},
		Provider: p,
	})
	for _, u := range []string{"https://a.org/", "https://b.org/"} {
		if _, err := b.Fetch(context.Background(), broker.Request{URL: u}); err != nil {
			t.Fatal(err)
		}
	}
	calls := p.calls()
	if want := (http.Header{"X-Key": {"S1"}, "X-Trace": {"t=S3;"}}); !reflect.DeepEqual(calls[0].Header, want) {
		t.Errorf("a.org got %v, want %v", calls[0].Header, want)
	}
	if want := (http.Header{"X-Key": {"k S2"}, "X-Trace": {"t=S3;"}}); !reflect.DeepEqual(calls[1].Header, want) {
		t.Errorf("b.org got %v, want %v", calls[1].Header, want)
	}
	a := b.Audit()
	if !reflect.DeepEqual(a[0].Credentials, []string{"first", "trace"}) || !reflect.DeepEqual(a[1].Credentials, []string{"trace", "second"}) {
		t.Errorf("credential names %v / %v", a[0].Credentials, a[1].Credentials)
	}
}

func TestCredentialProblemsRefuse(t *testing.T) {
	cases := []struct {
		name   string
		cred   broker.Credential
		secret string
		reason string
		says   string
	}{
		{"no secret", broker.Credential{Name: "openlibrary_key_v2", Header: "Authorization", Format: "Bearer {{secret}}"}, "", "no-secret", "PLUGIN_SECRET_TEST__openlibrary_key_v2"},
		{"secret with newline", broker.Credential{Name: "k", Header: "Authorization", Format: "Bearer {{secret}}"}, "abc\r\nX-Evil: 1", "bad-secret", "control character"},
		{"bad header name", broker.Credential{Name: "k", Header: "Bad Header", Format: "{{secret}}"}, "abc", "bad-credential", "not a valid HTTP header name"},
		{"empty header", broker.Credential{Name: "k", Header: "", Format: "{{secret}}"}, "abc", "bad-credential", "into.header is empty"},
		{"no placeholder", broker.Credential{Name: "k", Header: "X-Key", Format: "Bearer"}, "abc", "bad-credential", "no {{secret}} placeholder"},
		{"two placeholders", broker.Credential{Name: "k", Header: "X-Key", Format: "{{secret}}{{secret}}"}, "abc", "bad-credential", "exactly once"},
		{"transport header", broker.Credential{Name: "k", Header: "transfer-encoding", Format: "{{secret}}"}, "abc", "bad-credential", "controlled by the transport"},
		{"proxy header", broker.Credential{Name: "k", Header: "Proxy-Authorization", Format: "{{secret}}"}, "abc", "bad-credential", "controlled by the transport"},
		{"bad name", broker.Credential{Name: "k-1", Header: "X-Key", Format: "{{secret}}"}, "abc", "bad-credential", "not a secret name"},
		{"format CRLF", broker.Credential{Name: "k", Header: "X-Key", Format: "{{secret}}\r\nX: y"}, "abc", "bad-credential", "control character"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &recordingProvider{}
			sec := mapSecrets{}
			if c.secret != "" {
				sec[c.cred.Name] = c.secret
			}
			b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Credentials: []broker.Credential{c.cred}, Secrets: sec, Provider: p})
			_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
			be := brokerErr(t, err)
			if be.Reason != c.reason || !be.Refused || !strings.Contains(be.Message, c.says) {
				t.Errorf("got %q %q, want reason %q mentioning %q", be.Reason, be.Message, c.reason, c.says)
			}
			if c.secret != "" && strings.Contains(be.Message+mustJSON(t, b.Audit()), c.secret) {
				t.Errorf("the secret leaked: %s", be.Message)
			}
			if len(p.calls()) != 0 {
				t.Error("the request was sent")
			}
		})
	}
	// A broken credential scoped elsewhere does not block other domains.
	p := &recordingProvider{}
	b := broker.New(broker.Config{
		Fetch:       []broker.Capability{{Domain: "a.org"}, {Domain: "b.org"}},
		Credentials: []broker.Credential{{Name: "k", Header: "X-Key", Domains: []string{"b.org"}}},
		Provider:    p,
	})
	if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"}); err != nil {
		t.Errorf("a.org was refused because of b.org's credential: %v", err)
	}
}

// The tool never sees a secret, even one the server sends back; errors
// and the audit log never hold one either.
func TestSecretEchoedBackIsRedacted(t *testing.T) {
	p := &recordingProvider{respond: func(req *broker.Request) (*broker.Response, error) {
		auth := req.Header.Get("Authorization")
		return &broker.Response{Status: 200,
			Header: http.Header{"X-Echo": {auth}, "Content-Type": {"application/json"}},
			Body:   []byte(`{"youSent":"` + auth + `"}`), URL: req.URL}, nil
	}}
	b := broker.New(credConfig(p, mapSecrets{"openlibrary_key": olSecret}))
	resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://api.openlibrary.org/me"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(resp.Body), `{"youSent":"Bearer ••••(openlibrary_key)"}`; got != want {
		t.Errorf("body %s, want %s", got, want)
	}
	if got := resp.Header.Get("X-Echo"); got != "Bearer ••••(openlibrary_key)" {
		t.Errorf("echo header %q", got)
	}
	if p.calls()[0].Header.Get("Authorization") != "Bearer "+olSecret {
		t.Error("the provider did not get the real secret")
	}
	// A provider error quoting the secret is redacted too.
	p.respond = func(req *broker.Request) (*broker.Response, error) {
		return nil, &testErr{"server said: bad token " + req.Header.Get("Authorization")}
	}
	_, err = b.Fetch(context.Background(), broker.Request{URL: "https://api.openlibrary.org/me"})
	be := brokerErr(t, err)
	if strings.Contains(be.Message, olSecret) || !strings.Contains(be.Message, "••••(openlibrary_key)") {
		t.Errorf("error %q", be.Message)
	}
	if all := mustJSON(t, b.Audit()); strings.Contains(all, olSecret) {
		t.Errorf("secret in audit: %s", all)
	}
}

type testErr struct{ s string }

func (e *testErr) Error() string { return e.s }

func TestRedact(t *testing.T) {
	b := broker.New(broker.Config{
		Credentials: []broker.Credential{
			{Name: "short", Header: "X-A"},
			{Name: "long", Header: "X-B"},
			{Name: "unused", Header: "X-C", Domains: []string{"nowhere.org"}},
			{Name: "missing", Header: "X-D"},
		},
		Secrets: mapSecrets{"short": "abc", "long": "xxabcxx", "unused": "zzz9", "missing": ""},
	})
	cases := map[string]string{
		"":                        "",
		"nothing here":            "nothing here",
		"Bearer abc":              "Bearer ••••(short)",
		"k=xxabcxx;":              "k=••••(long);",
		"abcabc":                  "••••(short)••••(short)",
		"zzz9 is scoped away":     "••••(unused) is scoped away",
		"line1\nabc\n\"xxabcxx\"": "line1\n••••(short)\n\"••••(long)\"",
	}
	for in, want := range cases {
		if got := b.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	if got := broker.New(broker.Config{}).Redact("abc"); got != "abc" {
		t.Errorf("a broker without secrets changed %q", got)
	}
}

// TestSecretStoreGrant: a dev secret exported for plugin alpha reaches
// alpha's request and never beta's, whatever the case of the credential's
// name in beta; the unscoped PLUGIN_SECRET_<NAME> reaches nobody; the audit
// names every resolution with its source.
func TestSecretStoreGrant(t *testing.T) {
	env := map[string]string{
		"PLUGIN_SECRET_ALPHA__Gh_Token": "alpha-secret-1",
		"PLUGIN_SECRET_GH_TOKEN":        "unscoped-secret-2",
	}
	getenv := func(k string) string { return env[k] }
	run := func(plugin string, fx *broker.Fixtures, names ...string) (*recordingProvider, *broker.Broker, []error) {
		var creds []broker.Credential
		for _, n := range names {
			creds = append(creds, broker.Credential{Name: n, Header: "X-" + n, Format: "{{secret}}"})
		}
		p := &recordingProvider{}
		b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Credentials: creds,
			Secrets: broker.SecretStore(plugin, fx, getenv), Provider: p})
		var errs []error
		for range names {
			_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
			errs = append(errs, err)
		}
		return p, b, errs
	}
	// alpha: bound by the variable.
	p, b, errs := run("alpha", nil, "Gh_Token")
	if errs[0] != nil || len(p.reqs) != 1 || p.reqs[0].Header.Get("X-Gh_Token") != "alpha-secret-1" {
		t.Fatalf("alpha: err %v, requests %d", errs[0], len(p.reqs))
	}
	if got := fmt.Sprint(b.SecretAudit()); got != "[Gh_Token: env PLUGIN_SECRET_ALPHA__Gh_Token]" {
		t.Errorf("alpha audit %s", got)
	}
	// beta: every spelling of the name is refused, and nothing is sent.
	for _, name := range []string{"Gh_Token", "gh_token", "GH_TOKEN", "gh_Token"} {
		p, b, errs := run("beta", nil, name)
		be := brokerErr(t, errs[0])
		if be.Reason != broker.ReasonNoSecret || len(p.reqs) != 0 {
			t.Fatalf("beta %s: reason %q, %d requests sent", name, be.Reason, len(p.reqs))
		}
		bind := "PLUGIN_SECRET_BETA__" + name
		if !strings.Contains(be.Message, "bind it with "+bind+"=…") || !strings.Contains(be.Message, "PLUGIN_SECRET_GH_TOKEN is set but does not bind it") {
			t.Errorf("beta %s: the refusal does not say how to bind it: %s", name, be.Message)
		}
		a := b.SecretAudit()
		if len(a) != 1 || a[0].Name != name || a[0].Source != "refused" || a[0].Env != bind || a[0].Reason == "" {
			t.Errorf("beta %s: audit %+v", name, a)
		}
		for _, v := range env {
			if strings.Contains(be.Message+fmt.Sprintf("%v %+v %#v", a, a, a), v) {
				t.Errorf("beta %s: a secret value in the refusal or audit", name)
			}
		}
	}
	// fixtures come first, and are per plugin as they are.
	fx := &broker.Fixtures{Secrets: map[string]string{"Gh_Token": "from-fixtures"}}
	p, b, errs = run("beta", fx, "Gh_Token")
	if errs[0] != nil || p.reqs[0].Header.Get("X-Gh_Token") != "from-fixtures" {
		t.Fatalf("beta with fixtures: %v", errs[0])
	}
	if a := b.SecretAudit(); len(a) != 1 || a[0].Source != "fixtures" || a[0].Env != "" {
		t.Errorf("beta with fixtures: audit %+v", a)
	}
}

func TestCredentialDisplay(t *testing.T) {
	cases := map[string]broker.Credential{
		"Authorization: Bearer ••••(openlibrary_key)": {Name: "openlibrary_key", Header: "Authorization", Format: "Bearer {{secret}}"},
		"X-Api-Key: ••••(k)":                          {Name: "k", Header: "X-Api-Key"},
	}
	for want, c := range cases {
		if got := c.Display(); got != want {
			t.Errorf("Display() = %q, want %q", got, want)
		}
	}
}

// An empty domains list sends the credential nowhere; a list holding a
// domain that does not normalize breaks the credential: its scope is
// unknown, so it is never injected and every request is refused (fail
// closed) rather than sent without it, or with it to another host.
func TestCredentialDomainsEdge(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(broker.Config{
		Fetch:       []broker.Capability{{Domain: "a.org"}},
		Credentials: []broker.Credential{{Name: "empty", Header: "X-Empty", Format: "{{secret}}", Domains: []string{}}},
		Secrets:     mapSecrets{"empty": "e1"},
		Provider:    p,
	})
	if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"}); err != nil {
		t.Fatal(err)
	}
	if got := p.calls()[0].Header; len(got) != 0 {
		t.Errorf("sent %v, want no credential header", got)
	}

	p = &recordingProvider{}
	b = broker.New(broker.Config{
		Fetch: []broker.Capability{{Domain: "a.org"}},
		Credentials: []broker.Credential{
			{Name: "bad", Header: "X-Bad", Format: "{{secret}}", Domains: []string{"https://a.org", "a.org."}},
		},
		Secrets:  mapSecrets{"bad": "b1"},
		Provider: p,
	})
	_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
	if be := brokerErr(t, err); be.Reason != broker.ReasonCredential || !be.Refused {
		t.Errorf("got %+v, want a bad-credential refusal", be)
	}
	if n := len(p.calls()); n != 0 {
		t.Errorf("%d requests sent, want 0", n)
	}
}
