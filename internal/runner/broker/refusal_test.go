package broker_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// refusalCases are requests the broker must refuse before any provider
// (and so any socket) is involved. The allowlist is api.x.org,
// 127.0.0.1:8443, [::1] and api.example.com.
var refusalCases = []struct {
	name, method, url string
	reason, host      string
}{
	{"plain http", "", "http://api.x.org/v1", "not-https", "api.x.org"},
	{"ftp", "", "ftp://api.x.org/f", "not-https", "api.x.org"},
	{"websocket", "", "wss://api.x.org/ws", "not-https", "api.x.org"},
	{"file", "", "file:///etc/passwd", "bad-host", ""},
	{"javascript", "", "javascript:alert(1)", "bad-url", ""},
	{"data", "", "data:text/plain,hi", "bad-url", ""},
	{"opaque https", "", "https:api.x.org/x", "bad-url", ""},
	{"scheme-relative", "", "//api.x.org/x", "bad-url", ""},
	{"relative", "", "/v1/books", "bad-url", ""},
	{"empty", "", "", "bad-url", ""},
	{"empty host", "", "https:///api.x.org", "bad-host", ""},
	{"userinfo lookalike", "", "https://api.x.org@evil.com/", "userinfo", ""},
	{"userinfo with port", "", "https://api.x.org:443@evil.com/", "userinfo", ""},
	{"userinfo escaped slash", "", "https://api.x.org%2F@evil.com", "userinfo", ""},
	{"fragment lookalike", "", "https://evil.com#api.x.org", "not-allowed", "evil.com"},
	{"fragment userinfo", "", "https://evil.com#@api.x.org", "not-allowed", "evil.com"},
	{"query userinfo", "", "https://evil.com?@api.x.org", "not-allowed", "evil.com"},
	{"suffix lookalike", "", "https://api.x.org.evil.com/", "not-allowed", "api.x.org.evil.com"},
	{"prefix lookalike", "", "https://evilapi.x.org/", "not-allowed", "evilapi.x.org"},
	{"parent domain", "", "https://x.org/", "not-allowed", "x.org"},
	{"subdomain", "", "https://www.api.x.org/", "not-allowed", "www.api.x.org"},
	{"trailing dot", "", "https://api.x.org./", "trailing-dot", ""},
	{"empty label", "", "https://api..x.org/", "bad-host", ""},
	{"IDN cyrillic a", "", "https://аpi.x.org/", "idn", ""},
	{"IDN ideographic dots", "", "https://api。x。org/", "idn", ""},
	{"punycode not listed", "", "https://xn--pi-7kc.x.org/", "not-allowed", "xn--pi-7kc.x.org"},
	{"IPv4 not listed", "", "https://127.0.0.1/", "ip-literal", "127.0.0.1"},
	{"IPv4 listed but other port", "", "https://127.0.0.1:9443/", "ip-literal", "127.0.0.1:9443"},
	{"IPv6 not listed", "", "https://[::2]/", "ip-literal", "[::2]"},
	{"IPv4-mapped IPv6", "", "https://[::ffff:10.0.0.1]/", "bad-host", ""}, // new URL() names [::ffff:a00:1]: refused so both agree
	{"metadata IP", "", "https://169.254.169.254/latest/meta-data/", "ip-literal", "169.254.169.254"},
	{"decimal IP", "", "https://2130706433/", "bad-host", ""}, // new URL() reads 127.0.0.1
	{"hex IP", "", "https://0x7f.0.0.1/", "bad-host", ""},
	{"short IP", "", "https://127.1/", "bad-host", ""},
	{"other port", "", "https://api.x.org:8443/", "not-allowed", "api.x.org:8443"},
	{"port zero", "", "https://api.x.org:0/", "bad-host", ""},
	{"port too big", "", "https://api.x.org:99999/", "bad-host", ""},
	{"port sign", "", "https://api.x.org:+1/", "bad-url", ""},
	{"%2e in host", "", "https://api.x.org%2eevil.com/", "bad-url", ""},
	{"%2e everywhere", "", "https://api%2ex%2eorg/", "bad-url", ""},
	{"%23 in host", "", "https://evil.com%23api.x.org/", "bad-url", ""},
	{"%00 in host", "", "https://api.x.org%00.evil.com", "bad-url", ""},
	{"backslash userinfo", "", `https://evil.com\@api.x.org/`, "bad-url", ""},
	{"backslash authority", "", `https:\\api.x.org`, "bad-url", ""},
	{"newline", "", "https://api.x.org/\n", "bad-url", ""},
	{"space", "", "https:// api.x.org/", "bad-url", ""},
	{"tab", "", "https://api.x.org/\tx", "bad-url", ""},
	{"NUL", "", "https://api.x.org/\x00", "bad-url", ""},
	{"too long", "", "https://api.x.org/" + strings.Repeat("a", broker.MaxURLBytes), "bad-url", ""},
	{"CONNECT", "CONNECT", "https://api.x.org/", "bad-method", ""},
	{"TRACE", "TRACE", "https://api.x.org/", "bad-method", ""},
	{"method with space", "GET /x", "https://api.x.org/", "bad-method", ""},
	{"method CRLF", "GET\r\nX: y", "https://api.x.org/", "bad-method", ""},
}

func refusalConfig(p broker.Provider) broker.Config {
	return broker.Config{
		Fetch: []broker.Capability{
			{Domain: "api.x.org"}, {Domain: "127.0.0.1:8443"}, {Domain: "[::1]"}, {Domain: testHost},
		},
		Provider: p,
	}
}

func TestRefusals(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(refusalConfig(p))
	var want []record.FetchEntry
	for _, c := range refusalCases {
		resp, err := b.Fetch(context.Background(), broker.Request{Method: c.method, URL: c.url})
		if resp != nil || err == nil {
			t.Errorf("%s: %q was not refused (resp %v)", c.name, c.url, resp)
			continue
		}
		be := brokerErr(t, err)
		if be.Reason != c.reason || !be.Refused {
			t.Errorf("%s: %q refused as %q (refused=%v), want %q: %s", c.name, c.url, be.Reason, be.Refused, c.reason, be.Message)
		}
		if !strings.HasPrefix(be.Message, "fetch refused: ") {
			t.Errorf("%s: message %q does not say the fetch was refused", c.name, be.Message)
		}
		want = append(want, record.FetchEntry{Refused: c.reason, Host: c.host})
	}
	if calls := p.calls(); len(calls) != 0 {
		t.Fatalf("refused requests reached the provider: %v", calls)
	}
	got := b.Audit()
	if len(got) != len(want) {
		t.Fatalf("audit has %d entries, want %d", len(got), len(want))
	}
	for i, e := range got {
		if e.Refused != want[i].Refused || e.Host != want[i].Host || e.Status != 0 || e.Bytes != 0 || e.Error == "" || e.Source != "" || len(e.Credentials) != 0 {
			t.Errorf("audit[%d] (%s) = %+v, want refused %q host %q, an error and nothing else", i, refusalCases[i].name, e, want[i].Refused, want[i].Host)
		}
		if len(e.URL) > broker.MaxURLBytes+len("…") {
			t.Errorf("audit[%d] keeps a %d-byte URL", i, len(e.URL))
		}
	}
	if s := b.Stats(); s.Calls != len(refusalCases) || s.Sent != 0 || s.Bytes != 0 {
		t.Errorf("stats = %+v, want %d calls and nothing sent", s, len(refusalCases))
	}
}

// A refused request opens no socket: the network provider's dialer is
// never asked, while an allowed request dials once.
func TestRefusedOpensNoSocket(t *testing.T) {
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hi")) }))
	b := broker.New(refusalConfig(s.provider()))
	for _, c := range refusalCases {
		if _, err := b.Fetch(context.Background(), broker.Request{Method: c.method, URL: c.url}); err == nil {
			t.Fatalf("%s: not refused", c.name)
		}
	}
	if n := s.dials.Load(); n != 0 {
		t.Fatalf("refused requests dialed %d times: %v", n, s.dialed)
	}
	resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/ok"})
	if err != nil || resp.Status != 200 || string(resp.Body) != "hi" {
		t.Fatalf("allowed fetch: %v %v", resp, err)
	}
	if n := s.dials.Load(); n != 1 {
		t.Fatalf("allowed request dialed %d times, want 1", n)
	}
}

// Accepted spellings of an allowed host: the key is normalised, the
// request goes out as written.
func TestAllowedSpellings(t *testing.T) {
	cases := []struct{ url, host string }{
		{"https://api.x.org/v1", "api.x.org"},
		{"HTTPS://api.x.org/v1", "api.x.org"},
		{"https://API.X.ORG/v1", "api.x.org"},
		{"https://api.x.org:443/v1", "api.x.org"},
		{"https://api.x.org:/v1", "api.x.org"},
		{"https://api.x.org/v1?q=a@b#frag", "api.x.org"},
		{"https://127.0.0.1:8443/x", "127.0.0.1:8443"},
		{"https://[::1]/x", "[::1]"},
		{"https://[0:0::1]/x", "[::1]"},
	}
	p := &recordingProvider{}
	b := broker.New(refusalConfig(p))
	for _, c := range cases {
		resp, err := b.Fetch(context.Background(), broker.Request{URL: c.url})
		if err != nil || resp.Status != 200 {
			t.Errorf("%q: %v", c.url, err)
		}
	}
	calls := p.calls()
	if len(calls) != len(cases) {
		t.Fatalf("provider saw %d requests, want %d", len(calls), len(cases))
	}
	for i, e := range b.Audit() {
		if e.Host != cases[i].host || e.Refused != "" || e.Status != 200 || calls[i].URL != cases[i].url || calls[i].Method != "GET" {
			t.Errorf("%q: audit %+v, sent %+v", cases[i].url, e, calls[i])
		}
	}
}

// Capabilities whose domain does not normalize allow nothing.
func TestBadCapabilityIgnored(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(broker.Config{Fetch: []broker.Capability{
		{Domain: "https://api.x.org"}, {Domain: "api.x.org/"}, {Domain: ""}, {Domain: "аpi.x.org"}, {Domain: "evil.com."},
	}, Provider: p})
	for _, u := range []string{"https://api.x.org/", "https://evil.com/", "https://evil.com./"} {
		if _, err := b.Fetch(context.Background(), broker.Request{URL: u}); err == nil {
			t.Errorf("%s allowed by a malformed capability", u)
		}
	}
	if len(p.calls()) != 0 {
		t.Fatal("a malformed capability let a request through")
	}
}

// A call refused before any provider was asked has no source: the record
// must not say a fixture (or the network) answered, or was even consulted.
// A call the fixture provider could not answer did consult the fixtures.
func TestRefusedEntryHasNoSource(t *testing.T) {
	for name, p := range map[string]broker.Provider{
		"fixture": broker.NewFixtureProvider(&broker.Fixtures{}),
		"network": broker.NewNetworkProvider(broker.NetworkOptions{}),
	} {
		b := broker.New(refusalConfig(p))
		b.Fetch(context.Background(), broker.Request{URL: "http://api.x.org/"})
		e := b.Audit()[0]
		if e.Source != "" || e.Refused != "not-https" {
			t.Errorf("%s: %+v, want no source", name, e)
		}
		j, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(j), `"source"`) {
			t.Errorf("%s: the JSON names a source: %s", name, j)
		}
	}
}
