package broker_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

const fixturesJSON = `{
  "fnFetch": [
    { "url": "https://api.x.org/isbn/9780261103344.json",
      "body": { "title": "The Hobbit",
                "pages": 310 } },
    { "url": "https://api.x.org/isbn/9780261103344.json", "body": "shadowed: the first fixture wins" },
    { "url": "https://api.x.org/items", "method": "post", "status": 201, "body": {"id": 7} },
    { "url": "https://api.x.org/text", "body": "plain ünïcode" },
    { "url": "https://api.x.org/typed", "headers": { "content-type": "application/vnd.x+json", "X-Rate": "9" }, "body": [1, 2] },
    { "url": "https://api.x.org/gone", "status": 404, "body": "not found" },
    { "url": "https://api.x.org/empty", "status": 204 },
    { "url": "https://api.x.org/null", "body": null },
    { "url": "https://api.x.org/big", "body": "0123456789ABCDEF" }
  ],
  "secrets": { "k": "fixture-secret" },
  "collections": { "favourites": { "a": { "n": 1 } } }
}`

func fixtureBroker(t *testing.T, maxBytes int64) *broker.Broker {
	t.Helper()
	f, err := fixtures.Parse([]byte(fixturesJSON))
	if err != nil {
		t.Fatal(err)
	}
	return broker.New(broker.Config{
		Fetch:    []broker.Capability{{Domain: "api.x.org", MaxBytes: maxBytes}, {Domain: "api.y.org"}},
		Provider: broker.NewFixtureProvider(f),
	})
}

func TestFixtureProviderAnswers(t *testing.T) {
	b := fixtureBroker(t, 0)
	cases := []struct {
		method, url string
		status      int
		ctype, body string
		extra       http.Header
	}{
		{"", "https://api.x.org/isbn/9780261103344.json", 200, "application/json", `{"title":"The Hobbit","pages":310}`, nil},
		{"POST", "https://api.x.org/items", 201, "application/json", `{"id":7}`, nil},
		{"Post", "https://api.x.org/items", 201, "application/json", `{"id":7}`, nil},
		{"GET", "https://api.x.org/text", 200, "text/plain; charset=utf-8", "plain ünïcode", nil},
		{"GET", "https://api.x.org/typed", 200, "application/vnd.x+json", `[1,2]`, http.Header{"X-Rate": {"9"}}},
		{"GET", "https://api.x.org/gone", 404, "text/plain; charset=utf-8", "not found", nil},
		{"GET", "https://api.x.org/empty", 204, "", "", nil},
		{"GET", "https://api.x.org/null", 200, "application/json", "null", nil},
	}
	for _, c := range cases {
		resp, err := b.Fetch(context.Background(), broker.Request{Method: c.method, URL: c.url})
		if err != nil {
			t.Errorf("%s %s: %v", c.method, c.url, err)
			continue
		}
		want := http.Header{}
		if c.ctype != "" {
			want.Set("Content-Type", c.ctype)
		}
		for k, v := range c.extra {
			want[k] = v
		}
		if resp.Status != c.status || string(resp.Body) != c.body || !reflect.DeepEqual(resp.Header, want) || resp.URL != c.url {
			t.Errorf("%s %s: got %d %v %q, want %d %v %q", c.method, c.url, resp.Status, resp.Header, resp.Body, c.status, want, c.body)
		}
	}
	for i, e := range b.Audit() {
		if e.Source != "fixture" || e.Status != cases[i].status || e.Bytes != int64(len(cases[i].body)) || e.Refused != "" {
			t.Errorf("audit[%d] %+v", i, e)
		}
	}
	// Responses are copies: a tool mutating one cannot change the next.
	r1, _ := b.Fetch(context.Background(), broker.Request{URL: "https://api.x.org/text"})
	r1.Body[0] = 'X'
	r1.Header.Set("Content-Type", "changed")
	r2, _ := b.Fetch(context.Background(), broker.Request{URL: "https://api.x.org/text"})
	if string(r2.Body) != "plain ünïcode" || r2.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("fixture mutated: %q %v", r2.Body, r2.Header)
	}
}

func TestFixtureUnmatchedThrowsNamingClosest(t *testing.T) {
	b := fixtureBroker(t, 0)
	cases := []struct {
		method, url, closest string
	}{
		{"GET", "https://api.x.org/isbn/9780261103345.json", "closest fixtures: https://api.x.org/isbn/9780261103344.json, "},
		{"GET", "https://api.x.org/items", "closest fixtures: POST https://api.x.org/items, "},
		{"DELETE", "https://api.x.org/items", "closest fixtures: POST https://api.x.org/items, "},
		{"GET", "https://api.x.org/text?x=1", "closest fixtures: https://api.x.org/text, "},
		{"GET", "https://api.y.org/isbn/9780261103344.json", "closest fixtures: https://api.x.org/isbn/9780261103344.json, "},
	}
	for _, c := range cases {
		_, err := b.Fetch(context.Background(), broker.Request{Method: c.method, URL: c.url})
		be := brokerErr(t, err)
		if be.Reason != "no-fixture" || !be.Refused {
			t.Errorf("%s %s: %q", c.method, c.url, be.Reason)
		}
		if !strings.HasPrefix(be.Message, "no fixture answers "+c.method+" "+c.url+"; ") || !strings.Contains(be.Message, c.closest) ||
			!strings.Contains(be.Message, "to fnFetch in fixtures.json") {
			t.Errorf("%s %s: message %q lacks %q", c.method, c.url, be.Message, c.closest)
		}
		if n := strings.Count(be.Message, "https://api.x.org/"); n > 1+3+1 {
			t.Errorf("more than three closest fixtures: %s", be.Message)
		}
	}
	for _, e := range b.Audit() {
		if e.Refused != "no-fixture" || e.Source != "fixture" || e.Status != 0 || !strings.HasPrefix(e.Error, "no fixture answers") {
			t.Errorf("audit %+v", e)
		}
	}
	empty := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: broker.NewFixtureProvider(&broker.Fixtures{})})
	_, err := empty.Fetch(context.Background(), broker.Request{URL: "https://a.org/x"})
	if msg := brokerErr(t, err).Message; !strings.Contains(msg, "fixtures.json has no fnFetch entries") {
		t.Errorf("no fixtures: %q", msg)
	}
	nilp := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: broker.NewFixtureProvider(nil)})
	if _, err := nilp.Fetch(context.Background(), broker.Request{URL: "https://a.org/x"}); brokerErr(t, err).Reason != "no-fixture" {
		t.Error("nil fixtures")
	}
}

// The size cap applies to fixtures too: a cut would hide a real failure.
func TestFixtureSizeCap(t *testing.T) {
	b := fixtureBroker(t, 15)
	_, err := b.Fetch(context.Background(), broker.Request{URL: "https://api.x.org/big"})
	if be := brokerErr(t, err); be.Reason != "too-large" || !strings.Contains(be.Message, "larger than 15 bytes") {
		t.Fatalf("%+v", be)
	}
	b = fixtureBroker(t, 16)
	if resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://api.x.org/big"}); err != nil || len(resp.Body) != 16 {
		t.Fatalf("exact cap: %v", err)
	}
}

func TestParseFixtures(t *testing.T) {
	f, err := fixtures.Parse([]byte(fixturesJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.FnFetch) != 9 || f.Secrets["k"] != "fixture-secret" || string(f.Collections["favourites"]) != `{ "a": { "n": 1 } }` {
		t.Errorf("parsed %+v", f)
	}
	if x := f.FnFetch[2]; x.Method != "POST" || x.Status != 201 || f.FnFetch[0].Method != "" || f.FnFetch[0].Status != 200 {
		t.Errorf("defaults not applied: %+v %+v", x, f.FnFetch[0])
	}
	for _, empty := range []string{"", "  \n", "{}"} {
		if f, err := fixtures.Parse([]byte(empty)); err != nil || len(f.FnFetch) != 0 {
			t.Errorf("%q: %v", empty, err)
		}
	}
	bad := []struct{ in, want string }{
		{`{"fnFetch": [`, "1:14: "},
		{"{\n  \"fnFetch\": [ {\"url\": 1} ]\n}", `2:24: "fnFetch[0].url" must be an absolute URL like "https://api.example.com/v1/books?q=x", not a number`},
		{`{"fnFetch": {}}`, `1:13: "fnFetch" must be an array, not an object`},
		{`{"secrets": {"a": 1}}`, `1:19: "secrets.a" must be the secret's dev value, a string, not a number`},
		{`{"fnFetch": [{"url": "https://x.org", "headers": {"a": ["b"]}}]}`, `1:56: "fnFetch[0].headers.a" must be the header's value, a string without control characters, not an array`},
		{`[]`, `1:1: fixtures.json must hold one JSON object`},
		{`{} {}`, "1:4: "},
		{`{"fnFetch": [{"url": "https://a.org"}, {"body": "x"}]}`, `1:40: missing required key "url" in "fnFetch[1]"`},
		{`{"fnFetch": [{"url": "https://a.org", "method": "CONNECT"}]}`, `1:49: "fnFetch[0].method" must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS`},
		{`{"fnFetch": [{"url": "https://a.org", "status": 99}]}`, `1:49: "fnFetch[0].status" must be an HTTP status number from 100 to 599`},
		{`{"fnFetch": [{"url": "https://a.org", "status": 600}]}`, `"fnFetch[0].status" must be an HTTP status number`},
		{`{"fnFetch": [{"url": "https://a.org", "headers": {"Bad Name": "x"}}]}`, `1:51: key "Bad Name" in "fnFetch[0].headers" must be a header name`},
		{`{"fnFetch": [{"url": "https://a.org", "headers": {"X": "a\r\nb"}}]}`, `"fnFetch[0].headers.X" must be the header's value, a string without control characters`},
		{`{"fnFetch": [{"url": "https://a.org", "status": "200"}]}`, `1:49: "fnFetch[0].status" must be an HTTP status number from 100 to 599, like 200, not a string`},
		{`{"fnFetch": [{"url": "https://x.org", "status": 1.5}]}`, `1:49: "fnFetch[0].status" must be an HTTP status number from 100 to 599, like 200, not a number`},
		{`{"fnFetch": [{"url": "https://x.org", "stauts": 404}]}`, `1:39: unknown key "stauts" (did you mean "status"?)`},
		{`{"fnFecth": []}`, `1:2: unknown key "fnFecth" (did you mean "fnFetch"?)`},
		{`{"fnFetch": [{"url": "https://x.org", "error": "slow"}]}`, `"fnFetch[0].error" must be "timeout" or "network"`},
		{`{"fnFetch": [{"url": "https://x.org", "times": 0}]}`, `"fnFetch[0].times" must be a whole number of calls, 1 or more`},
		{`{"fnFetch": [{"url": "https://x.org", "request": {"header": {}}}]}`, `unknown key "header" (did you mean "headers"?)`},
	}
	for _, c := range bad {
		_, err := fixtures.Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("fixtures.Parse(%q) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

func TestLoadFixtures(t *testing.T) {
	dir := t.TempDir()
	f, err := broker.LoadFixtures(filepath.Join(dir, "missing.json"))
	if err != nil || f == nil || len(f.FnFetch) != 0 {
		t.Fatalf("missing file: %v %v", f, err)
	}
	p := filepath.Join(dir, "fixtures.json")
	os.WriteFile(p, []byte(fixturesJSON), 0o644)
	if f, err := broker.LoadFixtures(p); err != nil || len(f.FnFetch) != 9 {
		t.Fatalf("good file: %v", err)
	}
	os.WriteFile(p, []byte("{\n  \"fnFetch\": [\n"), 0o644)
	if _, err := broker.LoadFixtures(p); err == nil || !strings.HasPrefix(err.Error(), "fixtures "+p+":3:1: ") {
		t.Errorf("truncated file: %v", err)
	}
	if _, err := broker.LoadFixtures(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
	// The bundled example plugin's fixtures load and answer its URLs.
	ex, err := broker.LoadFixtures("../../../testdata/example/books/fixtures.json")
	if err != nil || len(ex.FnFetch) == 0 {
		t.Fatalf("example fixtures: %v", err)
	}
	b := broker.New(broker.Config{
		Fetch:       []broker.Capability{{Domain: "api.openlibrary.org"}, {Domain: "covers.openlibrary.org"}},
		Credentials: []broker.Credential{{Name: "openlibrary_key", Header: "Authorization", Format: "Bearer {{secret}}", Domains: []string{"api.openlibrary.org"}}},
		Secrets:     broker.SecretStore("test", ex, nil),
		Provider:    broker.NewFixtureProvider(ex),
	})
	resp, err := b.Fetch(context.Background(), broker.Request{URL: ex.FnFetch[0].URL})
	if err != nil {
		t.Fatal(err)
	}
	var book struct{ Title string }
	if json.Unmarshal(resp.Body, &book); book.Title != "The Hobbit" || b.Audit()[0].Credentials[0] != "openlibrary_key" {
		t.Errorf("example: %s %+v", resp.Body, b.Audit())
	}
}

// Sixty-four fetches per run; the 65th is refused; later calls are
// counted but not logged one by one (a loop cannot grow the audit log).
func TestFetchLimit(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: p})
	if b.MaxFetches() != 64 {
		t.Fatalf("default MaxFetches %d", b.MaxFetches())
	}
	for i := 0; i < 64; i++ {
		if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"}); err != nil {
			t.Fatalf("fetch %d: %v", i+1, err)
		}
	}
	for i := 0; i < 1000; i++ {
		_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
		if be := brokerErr(t, err); be.Reason != "limit" || !be.Refused || !strings.Contains(be.Message, "at most 64 per run") {
			t.Fatalf("call %d: %+v", 65+i, be)
		}
	}
	if n := len(p.calls()); n != 64 {
		t.Fatalf("%d requests sent", n)
	}
	a := b.Audit()
	if len(a) != 65 || a[64].Refused != "limit" || a[63].Refused != "" {
		t.Fatalf("audit has %d entries; last %+v", len(a), a[len(a)-1])
	}
	if st := b.Stats(); st.Calls != 1064 || st.Sent != 64 || st.Dropped != 999 {
		t.Errorf("stats %+v", st)
	}
	// Refused calls count too: the cap bounds every call the tool makes.
	b = broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: p, MaxFetches: 2})
	b.Fetch(context.Background(), broker.Request{URL: "http://a.org/"})
	b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
	if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"}); brokerErr(t, err).Reason != "limit" {
		t.Error("the third call of a 2-fetch run was not refused")
	}
}

// Hostile request headers and bodies.
func TestRequestHeadersAndBody(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: p})
	refused := []struct {
		name string
		req  broker.Request
		want string
	}{
		{"header CRLF", broker.Request{Header: http.Header{"X": {"a\r\nHost: evil.com"}}}, "bad-header"},
		{"header NUL", broker.Request{Header: http.Header{"X": {"a\x00"}}}, "bad-header"},
		{"header name space", broker.Request{Header: http.Header{"X Y": {"a"}}}, "bad-header"},
		{"header name colon", broker.Request{Header: http.Header{"X:": {"a"}}}, "bad-header"},
		{"empty header name", broker.Request{Header: http.Header{"": {"a"}}}, "bad-header"},
		{"huge headers", broker.Request{Header: http.Header{"X": {strings.Repeat("a", broker.MaxRequestHeaderBytes)}}}, "bad-header"},
		{"huge body", broker.Request{Body: make([]byte, broker.MaxRequestBodyBytes+1)}, "too-large"},
	}
	for _, c := range refused {
		c.req.URL = "https://a.org/"
		_, err := b.Fetch(context.Background(), c.req)
		if be := brokerErr(t, err); be.Reason != c.want || !be.Refused {
			t.Errorf("%s: %+v", c.name, be)
		}
	}
	if len(p.calls()) != 0 {
		t.Fatal("a refused request was sent")
	}
	// Headers the transport owns are dropped, as fetch() does.
	_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/", Header: http.Header{
		"Host": {"evil.com"}, "content-length": {"5"}, "Transfer-Encoding": {"chunked"}, "Connection": {"close"},
		"Proxy-Authorization": {"x"}, "Proxy-Foo": {"x"}, "Upgrade": {"h2c"}, "x-ok": {"1"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.calls()[0].Header; !reflect.DeepEqual(got, http.Header{"X-Ok": {"1"}}) {
		t.Errorf("sent headers %v", got)
	}
}

// Parallel callers cannot overrun the cap.
func TestFetchLimitConcurrent(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: p})
	var wg sync.WaitGroup
	var refused atomic.Int64
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
			if be, ok := err.(*broker.Error); ok && be.Reason == "limit" {
				refused.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := len(p.calls()); n != 64 || refused.Load() != 136 {
		t.Fatalf("%d sent, %d refused", n, refused.Load())
	}
	if a := b.Audit(); len(a) != 65 {
		t.Fatalf("audit has %d entries", len(a))
	}
}

// Matching as authors expect it: query order, any method, request
// matchers (credential headers count), times, simulated status, latency
// and errors.
func TestFixtureMatchingFeatures(t *testing.T) {
	f, err := fixtures.Parse([]byte(`{"fnFetch": [
	  {"url": "https://api.x.org/search?q=dune&limit=2", "body": {"n": 1}},
	  {"url": "https://api.x.org/any", "body": "any"},
	  {"url": "https://api.x.org/auth", "request": {"headers": {"authorization": "Bearer s3cret-value"}}, "body": "authorized"},
	  {"url": "https://api.x.org/books", "method": "POST", "request": {"json": {"title": "Dune"}}, "status": 201, "body": {"id": 1}},
	  {"url": "https://api.x.org/books", "method": "POST", "status": 400, "body": {"error": "bad"}},
	  {"url": "https://api.x.org/once", "times": 1, "body": "first"},
	  {"url": "https://api.x.org/once", "times": 1, "body": "second"},
	  {"url": "https://api.x.org/twice", "times": 2, "body": "x"},
	  {"url": "https://api.x.org/down", "status": 503, "headers": {"Retry-After": "3"}, "body": "unavailable"},
	  {"url": "https://api.x.org/slow", "latencyMs": 30, "body": "late"},
	  {"url": "https://api.x.org/timeout", "error": "timeout"},
	  {"url": "https://api.x.org/reset", "error": "network"},
	  {"url": "https://api.y.org/hang", "latencyMs": 5000, "body": "never"}
	], "secrets": {"k": "s3cret-value"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b := broker.New(broker.Config{
		Fetch:       []broker.Capability{{Domain: "api.x.org"}, {Domain: "api.y.org", TimeoutMs: 50}},
		Credentials: []broker.Credential{{Name: "k", Header: "Authorization", Format: "Bearer {{secret}}", Domains: []string{"api.x.org"}}},
		Secrets:     broker.SecretStore("test", f, nil),
		Provider:    broker.NewFixtureProvider(f),
	})
	type want struct {
		status int
		resp   string
		reason string
	}
	steps := []struct {
		method, url, body string
		want
	}{
		{"GET", "https://api.x.org/search?limit=2&q=dune", "", want{200, `{"n":1}`, ""}},
		{"DELETE", "https://api.x.org/any", "", want{200, "any", ""}},
		{"GET", "https://api.x.org/auth", "", want{200, "authorized", ""}},
		{"POST", "https://api.x.org/books", `{"title":"Dune","year":1965}`, want{201, `{"id":1}`, ""}},
		{"POST", "https://api.x.org/books", `{"title":"Emma"}`, want{400, `{"error":"bad"}`, ""}},
		{"GET", "https://api.x.org/books", "", want{0, "", "no-fixture"}},
		{"GET", "https://api.x.org/once", "", want{200, "first", ""}},
		{"GET", "https://api.x.org/once", "", want{200, "second", ""}},
		{"GET", "https://api.x.org/once", "", want{0, "", "no-fixture"}},
		{"GET", "https://api.x.org/twice", "", want{200, "x", ""}},
		{"GET", "https://api.x.org/twice", "", want{200, "x", ""}},
		{"GET", "https://api.x.org/twice", "", want{0, "", "no-fixture"}},
		{"GET", "https://api.x.org/down", "", want{503, "unavailable", ""}},
		{"GET", "https://api.x.org/slow", "", want{200, "late", ""}},
		{"GET", "https://api.x.org/timeout", "", want{0, "", "timeout"}},
		{"GET", "https://api.x.org/reset", "", want{0, "", "network"}},
		{"GET", "https://api.y.org/hang", "", want{0, "", "timeout"}},
	}
	for i, s := range steps {
		resp, err := b.Fetch(context.Background(), broker.Request{Method: s.method, URL: s.url, Body: []byte(s.body), Header: http.Header{}})
		if s.reason != "" {
			be := brokerErr(t, err)
			if be.Reason != s.reason {
				t.Errorf("step %d %s: reason %q (%s), want %q", i, s.url, be.Reason, be.Message, s.reason)
			}
			if strings.Contains(be.Message, "s3cret-value") {
				t.Errorf("step %d: secret in %q", i, be.Message)
			}
			continue
		}
		if err != nil {
			t.Errorf("step %d %s: %v", i, s.url, err)
			continue
		}
		if resp.Status != s.status || string(resp.Body) != s.resp {
			t.Errorf("step %d %s: %d %q, want %d %q", i, s.url, resp.Status, resp.Body, s.status, s.resp)
		}
	}
	audit := b.Audit()
	if e := audit[13]; e.Ms < 30 {
		t.Errorf("latencyMs 30 answered after %v ms", e.Ms)
	}
	if e := audit[16]; e.Ms > 2000 {
		t.Errorf("a 5 s latency past a 50 ms fetchTimeoutMs took %v ms", e.Ms)
	}
	if e := audit[8]; !strings.Contains(e.Error, "already answered as many times") {
		t.Errorf("used-up message: %q", e.Error)
	}
	if e := audit[15]; !strings.Contains(e.Error, "simulated by the fixture https://api.x.org/reset") {
		t.Errorf("network error message: %q", e.Error)
	}
	if e := audit[14]; !strings.Contains(e.Error, "timed out") {
		t.Errorf("timeout message: %q", e.Error)
	}
	// Use counts belong to one provider (one run): a fresh one starts over.
	b2 := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "api.x.org"}}, Credentials: []broker.Credential{{Name: "k", Header: "Authorization", Format: "Bearer {{secret}}", Domains: []string{"api.x.org"}}},
		Secrets: broker.SecretStore("test", f, nil), Provider: broker.NewFixtureProvider(f)})
	if resp, err := b2.Fetch(context.Background(), broker.Request{URL: "https://api.x.org/once"}); err != nil || string(resp.Body) != "first" {
		t.Errorf("fresh provider: %v %v", resp, err)
	}
}
