package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// Fixtures is a plugin's fixtures.json (DESIGN.md §2).
type Fixtures struct {
	FnFetch     []Fixture                  `json:"fnFetch"`
	Secrets     map[string]string          `json:"secrets"`
	Collections map[string]json.RawMessage `json:"collections"`
}

// Fixture is one canned response. Method defaults to GET, Status to 200.
// Body is a JSON string (served as text) or any other JSON value (served
// as application/json).
type Fixture struct {
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    json.RawMessage   `json:"body,omitempty"`
}

// MaxFixturesBytes bounds fixtures.json (as every plugin file).
const MaxFixturesBytes = analysis.MaxFileSize

// LoadFixtures reads a fixtures file. A missing file gives empty fixtures.
func LoadFixtures(path string) (*Fixtures, error) {
	// Never blocks on a FIFO or reads a device without end.
	data, err := analysis.ReadRegular(path, MaxFixturesBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &Fixtures{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fixtures: %w", err)
	}
	f, err := ParseFixtures(data)
	if err != nil {
		return nil, fmt.Errorf("fixtures %s:%w", path, err)
	}
	return f, nil
}

// ParseFixtures parses the contents of a fixtures file. Errors start with
// "line:col: " (1-based, byte column) of the offending value.
func ParseFixtures(data []byte) (*Fixtures, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &Fixtures{}, nil
	}
	root, serr := jsonpos.Parse(data)
	if serr != nil {
		return nil, fmt.Errorf("%s: %s", lineCol(data, int64(serr.Offset)), serr.Message)
	}
	at := func(ptr string) string {
		n, _ := root.Lookup(ptr)
		if n == nil {
			return lineCol(data, 0)
		}
		return lineCol(data, int64(n.Span.Start))
	}
	var f Fixtures
	if err := json.Unmarshal(data, &f); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		if errors.As(err, &se) { // what jsonpos lets through: data after the value
			return nil, fmt.Errorf("%s: %v", lineCol(data, se.Offset-1), se)
		}
		if errors.As(err, &te) {
			n := nodeAt(root, int(te.Offset))
			what := "the document"
			if p := n.Pointer(); p != "" {
				what = p
			}
			return nil, fmt.Errorf("%s: %s must be %s, not %s", lineCol(data, int64(n.Span.Start)), what, kindName(te.Type.Kind().String()), te.Value)
		}
		return nil, fmt.Errorf("%s: %v", lineCol(data, 0), err)
	}
	for i := range f.FnFetch {
		x := &f.FnFetch[i]
		ptr := fmt.Sprintf("/fnFetch/%d", i)
		if x.URL == "" {
			return nil, fmt.Errorf("%s: %s has no \"url\"", at(ptr), ptr)
		}
		m := strings.ToUpper(strings.TrimSpace(x.Method))
		if m == "" {
			m = "GET"
		}
		if !allowedMethods[m] {
			return nil, fmt.Errorf("%s: %s/method is %q; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS", at(ptr+"/method"), ptr, x.Method)
		}
		x.Method = m
		if x.Status == 0 {
			x.Status = http.StatusOK
		}
		if x.Status < 100 || x.Status > 599 {
			return nil, fmt.Errorf("%s: %s/status is %d; use 100–599", at(ptr+"/status"), ptr, x.Status)
		}
		for k, v := range x.Headers {
			if !validHeaderName(k) || !validHeaderValue(v) {
				return nil, fmt.Errorf("%s: %s/headers has an invalid header %q", at(ptr+"/headers"), ptr, k)
			}
		}
	}
	return &f, nil
}

// nodeAt finds the value encoding/json was decoding when it reported a
// type error at off: a scalar ending at off, or a container opened just
// before it. Falls back to the deepest node containing off.
func nodeAt(root *jsonpos.Node, off int) *jsonpos.Node {
	n := root
	for {
		var next *jsonpos.Node
		for _, c := range n.Children() {
			if c.Span.Start < off && off <= c.Span.End {
				next = c
				break
			}
		}
		if next == nil {
			return n
		}
		if next.Span.End == off && next.Kind != jsonpos.Object && next.Kind != jsonpos.Array || next.Span.Start == off-1 {
			return next
		}
		n = next
	}
}

func kindName(k string) string {
	switch k {
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	case "int", "int64":
		return "an integer"
	}
	return "a " + k
}

// lineCol turns a byte offset into "line:col" (1-based).
func lineCol(data []byte, off int64) string {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// SecretStore resolves secrets from the fixtures' "secrets", then from the
// environment variable EnvName(name) read through env (nil: no
// environment). Empty values count as missing.
func (f *Fixtures) SecretStore(env func(string) string) Secrets {
	var m map[string]string
	if f != nil {
		m = f.Secrets
	}
	return secretStore{fixtures: m, env: env}
}

type secretStore struct {
	fixtures map[string]string
	env      func(string) string
}

func (s secretStore) Lookup(name string) (string, bool) {
	if v := s.fixtures[name]; v != "" {
		return v, true
	}
	if s.env != nil && name != "" {
		if v := s.env(EnvName(name)); v != "" {
			return v, true
		}
	}
	return "", false
}

// NoFixtureError is the fixture provider's answer to a request no fixture
// matches: the broker reports it as a "no-fixture" refusal.
type NoFixtureError struct {
	Method, URL string
	Closest     []string // "METHOD URL" of the nearest fixtures, best first
	Total       int      // number of fixtures
}

func (e *NoFixtureError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "no fixture answers %s %s", e.Method, clip(e.URL, 512))
	switch {
	case e.Total == 0:
		sb.WriteString(": fixtures.json has no fnFetch entries")
	case len(e.Closest) > 0:
		sb.WriteString("; closest fixtures: ")
		sb.WriteString(strings.Join(e.Closest, ", "))
	}
	fmt.Fprintf(&sb, " (add {\"url\": %q", clip(e.URL, 512))
	if e.Method != "GET" {
		fmt.Fprintf(&sb, ", \"method\": %q", e.Method)
	}
	sb.WriteString(", \"body\": …} to fnFetch in fixtures.json)")
	return sb.String()
}

// NewFixtureProvider answers from f.FnFetch: method and exact URL; the
// first matching fixture wins.
func NewFixtureProvider(f *Fixtures) Provider {
	p := &fixtureProvider{byKey: map[string]*cannedResponse{}}
	if f == nil {
		return p
	}
	for i := range f.FnFetch {
		x := &f.FnFetch[i]
		m := strings.ToUpper(x.Method)
		if m == "" {
			m = "GET"
		}
		key := m + " " + x.URL
		p.keys = append(p.keys, fixtureKey{method: m, url: x.URL})
		if _, dup := p.byKey[key]; dup {
			continue
		}
		p.byKey[key] = canned(x)
	}
	return p
}

type fixtureKey struct{ method, url string }

type fixtureProvider struct {
	byKey map[string]*cannedResponse
	keys  []fixtureKey
}

type cannedResponse struct {
	status int
	header http.Header
	body   []byte
}

func canned(x *Fixture) *cannedResponse {
	c := &cannedResponse{status: x.Status, header: http.Header{}}
	if c.status == 0 {
		c.status = http.StatusOK
	}
	contentType := ""
	raw := bytes.TrimSpace(x.Body)
	switch {
	case len(raw) == 0:
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			c.body = []byte(s)
			contentType = "text/plain; charset=utf-8"
		}
	default:
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			c.body = buf.Bytes()
		} else {
			c.body = append([]byte(nil), raw...)
		}
		contentType = "application/json"
	}
	for k, v := range x.Headers {
		c.header.Set(k, v)
	}
	if contentType != "" && c.header.Get("Content-Type") == "" {
		c.header.Set("Content-Type", contentType)
	}
	return c
}

// Source says that this provider answers from fixtures.
func (p *fixtureProvider) Source() Source { return SourceFixture }

func (p *fixtureProvider) RoundTrip(ctx context.Context, req *Request, limits Capability) (*Response, Source, error) {
	if err := ctx.Err(); err != nil {
		return nil, SourceFixture, err
	}
	c := p.byKey[req.Method+" "+req.URL]
	if c == nil {
		return nil, SourceFixture, &NoFixtureError{Method: req.Method, URL: req.URL, Closest: p.closest(req.Method, req.URL, 3), Total: len(p.keys)}
	}
	return &Response{Status: c.status, Header: c.header.Clone(), Body: bytes.Clone(c.body), URL: req.URL}, SourceFixture, nil
}

// closest ranks fixtures by how much of the URL they share at both ends
// (a wrong id in the path, a typo in the host), then by method, then by
// length difference. Linear in the size of the fixtures.
func (p *fixtureProvider) closest(method, url string, n int) []string {
	type scored struct {
		key   fixtureKey
		score int
		diff  int
		order int
	}
	u := clip(url, 2048)
	var all []scored
	seen := map[fixtureKey]bool{}
	for i, k := range p.keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		s := scored{key: k, order: i}
		s.score = sharedEnds(u, k.url) * 2
		if k.method == method {
			s.score++
		}
		s.diff = len(k.url) - len(url)
		if s.diff < 0 {
			s.diff = -s.diff
		}
		all = append(all, s)
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		return all[i].diff < all[j].diff
	})
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].key.method+" "+clip(all[i].key.url, 512))
	}
	return out
}

// sharedEnds is the length of the common prefix plus the common suffix of
// a and b, at most the shorter length.
func sharedEnds(a, b string) int {
	m := min(len(a), len(b))
	pre := 0
	for pre < m && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < m-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre + suf
}
