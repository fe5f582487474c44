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
	"sync"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
)

// Fixtures is a plugin's fixtures.json; its schema, parsing and matching
// rules live in internal/checker/fixtures (shared with the checker).
type Fixtures = fixtures.File

// Fixture is one canned response (see fixtures.Fixture).
type Fixture = fixtures.Fixture

// MaxFixturesBytes bounds fixtures.json (as every plugin file).
const MaxFixturesBytes = checker.MaxFileSize

// LoadFixtures reads a fixtures file. A missing file gives empty fixtures.
func LoadFixtures(path string) (*Fixtures, error) {
	// Never blocks on a FIFO or reads a device without end.
	data, err := checker.ReadRegular(path, MaxFixturesBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &Fixtures{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fixtures: %w", err)
	}
	f, err := fixtures.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("fixtures %s:%w", path, err)
	}
	return f, nil
}

// SecretStore is the dev secret resolver of the plugin named plugin
// (plugin.json "name"): the fixtures' "secrets" (f may be nil), then the
// environment variable that binds the secret to this plugin, read through
// env (nil: no environment). See capability.DevSecrets.
func SecretStore(plugin string, f *Fixtures, env func(string) string) Secrets {
	d := capability.DevSecrets{Plugin: plugin, Env: env}
	if f != nil {
		d.Fixtures = f.Secrets
	}
	return d
}

// NoFixtureError is the fixture provider's answer to a request no fixture
// matches: the broker reports it as a "no-fixture" refusal.
type NoFixtureError struct {
	Method, URL string
	Closest     []string // "METHOD URL" of the nearest fixtures, best first
	Total       int      // number of fixtures
	UsedUp      int      // matching fixtures whose "times" were all used
}

func (e *NoFixtureError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "no fixture answers %s %s", e.Method, checker.Clip(e.URL, 512))
	switch {
	case e.UsedUp > 0:
		fmt.Fprintf(&sb, ": the %d matching fixture(s) already answered as many times as their \"times\" allow", e.UsedUp)
		return sb.String()
	case e.Total == 0:
		sb.WriteString(": fixtures.json has no fnFetch entries")
	case len(e.Closest) > 0:
		sb.WriteString("; closest fixtures: ")
		sb.WriteString(strings.Join(e.Closest, ", "))
	}
	fmt.Fprintf(&sb, " (add {\"url\": %q", checker.Clip(e.URL, 512))
	if e.Method != "GET" {
		fmt.Fprintf(&sb, ", \"method\": %q", e.Method)
	}
	sb.WriteString(", \"body\": …} to fnFetch in fixtures.json)")
	return sb.String()
}

// NewFixtureProvider answers from f.FnFetch: the first fixture that
// matches the request (fixtures.Fixture.Matches) and has uses left
// ("times") answers; it may wait ("latencyMs") or fail ("error").
// A provider holds the use counts of one run.
func NewFixtureProvider(f *Fixtures) Provider { return NewFixtureIndex(f).Provider() }

// FixtureIndex is what fixture providers read of a Fixtures: its canned
// responses (bodies compacted, headers set) and the fixtures by URL, made
// once. Each provider made from it keeps the use counts of its own run;
// nothing of one run reaches another through it. f must not change
// afterwards (the runner keeps it with the parsed file, by content).
func NewFixtureIndex(f *Fixtures) *FixtureIndex {
	x := &FixtureIndex{byURL: map[string][]int{}}
	if f != nil {
		x.list = f.FnFetch
		x.resp = make([]*cannedResponse, len(f.FnFetch))
		for i := range f.FnFetch {
			x.resp[i] = canned(&f.FnFetch[i])
			k := fixtures.URLKey(f.FnFetch[i].URL)
			x.byURL[k] = append(x.byURL[k], i)
		}
	}
	return x
}

// FixtureIndex: see NewFixtureIndex.
type FixtureIndex struct {
	list  []Fixture
	resp  []*cannedResponse // only read: each answer is a copy (RoundTrip)
	byURL map[string][]int  // fixtures.URLKey → indexes in file order
}

// Provider is a fixture provider for one run.
func (x *FixtureIndex) Provider() Provider {
	return &fixtureProvider{FixtureIndex: x, used: make([]int, len(x.list))}
}

type fixtureProvider struct {
	*FixtureIndex

	mu   sync.Mutex
	used []int
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

// SimulatedError is a fixture's "error": "network" (a failed connection).
type SimulatedError struct{ Fixture string }

func (e *SimulatedError) Error() string {
	return "connection failed (simulated by the fixture " + checker.Clip(e.Fixture, 512) + ")"
}

func (p *fixtureProvider) RoundTrip(ctx context.Context, req *Request, limits Capability) (*Response, Source, error) {
	if err := ctx.Err(); err != nil {
		return nil, SourceFixture, err
	}
	i, usedUp := p.take(req)
	if i < 0 {
		return nil, SourceFixture, &NoFixtureError{Method: req.Method, URL: req.URL, Closest: p.closest(req.Method, req.URL, 3), Total: len(p.list), UsedUp: usedUp}
	}
	x := &p.list[i]
	if x.LatencyMs > 0 {
		t := time.NewTimer(time.Duration(x.LatencyMs) * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, SourceFixture, ctx.Err()
		}
	}
	switch x.Error {
	case fixtures.ErrorTimeout:
		return nil, SourceFixture, context.DeadlineExceeded
	case fixtures.ErrorNetwork:
		return nil, SourceFixture, &SimulatedError{Fixture: x.Describe()}
	}
	c := p.resp[i]
	return &Response{Status: c.status, Header: c.header.Clone(), Body: bytes.Clone(c.body), URL: req.URL}, SourceFixture, nil
}

// take finds the first matching fixture with uses left and counts the use.
// usedUp is how many matching fixtures had none left.
func (p *fixtureProvider) take(req *Request) (idx, usedUp int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, i := range p.byURL[fixtures.URLKey(req.URL)] {
		x := &p.list[i]
		if !x.Matches(req.Method, req.URL, req.Header, req.Body) {
			continue
		}
		if x.Times > 0 && p.used[i] >= x.Times {
			usedUp++
			continue
		}
		p.used[i]++
		return i, usedUp
	}
	return -1, usedUp
}

// closest ranks fixtures by how much of the URL they share at both ends
// (a wrong id in the path, a typo in the host), then by method, then by
// length difference. Linear in the size of the fixtures.
func (p *fixtureProvider) closest(method, url string, n int) []string {
	type scored struct {
		desc  string
		score int
		diff  int
	}
	u := checker.Clip(url, 2048)
	var all []scored
	seen := map[string]bool{}
	for i := range p.list {
		x := &p.list[i]
		d := x.Describe()
		if seen[d] {
			continue
		}
		seen[d] = true
		s := scored{desc: x.Describe()}
		s.score = sharedEnds(u, x.URL) * 2
		if x.MatchesMethod(method) {
			s.score++
		}
		s.diff = len(x.URL) - len(url)
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
		out = append(out, checker.Clip(all[i].desc, 520))
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
