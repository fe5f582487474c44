package explore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// mode is how the exploring broker answers a fetch in one run.
type mode int

const (
	modeFixture     mode = iota // the matching fixture, else 200 {}
	modeArray                   // 200 []
	modeNotFound                // 404 {}
	modeServerError             // 500 {}
)

// stub is the answer a fetch of a run in mode m gets when no fixture
// answers it (modeFixture: a neutral 200 {}).
func (m mode) stub() (status int, body string) {
	switch m {
	case modeArray:
		return 200, "[]"
	case modeNotFound:
		return 404, "{}"
	case modeServerError:
		return 500, "{}"
	}
	return 200, "{}"
}

// answer is how the fetches of a run in mode m are answered, for a
// message ("" for the fixtures, the usual way).
func (m mode) answer() string {
	if m == modeFixture {
		return ""
	}
	status, body := m.stub()
	return fmt.Sprintf("%d %s", status, body)
}

// stubLimits are the caps a fixture is read with (the default caps).
var stubLimits = capability.Fetch{MaxBytes: 1 << 20, TimeoutMs: 10_000}

// ending is how a run ended: "" it returned, else the sandbox's error kind
// (sandbox.KindThrown, KindTicks, KindTimeout…).
type ending string

// finished: the run went its own way to its end (returned, threw, never
// settled, did not compile).
func (e ending) finished() bool {
	switch e {
	case "", sandbox.KindThrown, sandbox.KindUnsettled, sandbox.KindCompile:
		return true
	}
	return false
}

// cut: the run ended by something other than its own work: the wall-time
// backstop, a cancellation, the sandbox failing. What it reached depends
// on the machine and the moment; the tick budget, the memory cap and the
// stack do not (the same run stops at the same point everywhere).
func (e ending) cut() bool {
	switch e {
	case sandbox.KindTimeout, sandbox.KindCanceled, sandbox.KindInternal:
		return true
	}
	return false
}

// run makes one run and says how it ended; a run that did not finish
// (tick budget, memory, backstop) may not have reached everything. fetched:
// the page called http.fetch.
func (x *Explorer) run(ctx context.Context, p *checker.Plugin, prog *runner.Program, reach *capability.Reach,
	seed map[string]json.RawMessage, index *broker.FixtureIndex, pl planned, n int, res *result) (end ending, fetched bool) {
	provider := index.Provider() // its own use counts per run
	var calls sync.Mutex
	count := 0
	input := string(pl.input)
	free := pl.free
	fetch := func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		res.method(n, "http.fetch")
		calls.Lock()
		count++
		seq := count
		calls.Unlock()
		if seq > MaxFetchesPerRun {
			return nil, errors.New("fetch refused: the run already made " + strconv.Itoa(MaxFetchesPerRun) + " fetches")
		}
		// The broker refuses a URL this long before it reads it
		// (broker.MaxURLBytes): so does exploration, without parsing or
		// recording it (a page that builds an 80 MB URL costs a run, not
		// seconds of parsing per run).
		if len(args) > 0 && len(args[0]) > broker.MaxURLBytes+2 {
			return nil, errors.New("fetch refused: the URL is longer than " + strconv.Itoa(broker.MaxURLBytes) + " bytes")
		}
		var url string
		if len(args) == 0 || json.Unmarshal(args[0], &url) != nil {
			return nil, errors.New("http.fetch: the URL must be a string")
		}
		var init struct {
			Method  string            `json:"method"`
			Headers map[string]string `json:"headers"`
			Body    *string           `json:"body"`
		}
		if len(args) > 1 {
			_ = json.Unmarshal(args[1], &init)
		}
		site, via := sites(prog, sandbox.CallSite(ctx))
		t, _ := fetchurl.Parse(url)
		f := checker.ExploredFetch{Site: site, Via: via, URL: checker.Clip(url, 4096), Host: t.Host, Input: input,
			Dynamic: fromMarker(t.Host, url), Guessed: guessed(t.Host, free)}
		if f.Dynamic || t.Host != "" {
			res.add(n, seq, f)
		}
		// The answer: fixture, else a neutral stub; never the network.
		status, stub := pl.mode.stub()
		body := []byte(stub)
		headers := map[string]string{"content-type": "application/json"}
		if pl.mode == modeFixture {
			req := &broker.Request{Method: strings.ToUpper(init.Method), URL: url, Header: http.Header{}}
			if req.Method == "" {
				req.Method = "GET"
			}
			if init.Body != nil {
				req.Body = []byte(*init.Body)
			}
			if r, _, err := provider.RoundTrip(ctx, req, stubLimits); err == nil && r != nil {
				status, body = r.Status, r.Body
				headers = map[string]string{}
				for k, vs := range r.Header {
					headers[strings.ToLower(k)] = strings.Join(vs, ", ")
				}
			}
		}
		return runner.FetchResult(status, headers, url, body)
	}
	methods := []sandbox.Method{}
	for _, name := range reach.Host {
		if name == "http.fetch" {
			methods = append(methods, sandbox.Method{Name: name, Async: true, Fn: fetch})
		}
	}
	for _, m := range runner.CollectionsMethods(reach, seed) {
		fn := m.Fn
		name := m.Name
		m.Fn = func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
			res.method(n, name)
			return fn(ctx, args)
		}
		methods = append(methods, m)
	}
	out := x.engine.Run(ctx, sandbox.Job{
		Name:        runner.ScriptName,
		Code:        prog.Code,
		Input:       pl.input,
		Methods:     methods,
		Timeout:     x.opts.RunBackstop,
		MaxTicks:    x.opts.RunTicks,
		VirtualTime: true,
		CallSites:   true,
	})
	if x.onRun != nil {
		x.onRun(out)
	}
	calls.Lock()
	fetched = count > 0
	calls.Unlock()
	if out.OK || out.Err == nil {
		return "", fetched
	}
	return ending(out.Err.Kind), fetched
}

// frame matches a mapped stack position "(code/lib/x.ts:12:5)".
var frame = regexp.MustCompile(`\(([^()\s]+):(\d+):(\d+)\)`)

// sites reads the call site out of a host call's stack: the innermost
// frame in a plugin file, and the page's frame that led there when that
// is another file.
func sites(prog *runner.Program, stack string) (site, via checker.Site) {
	if stack == "" {
		return
	}
	mapped, _, _, _ := prog.MapStack(stack)
	for _, l := range strings.Split(mapped, "\n") {
		m := frame.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[1], "<") || m[1] == runner.ScriptName {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		s := checker.Site{File: m[1], Line: line, Col: col}
		if site.File == "" {
			site = s
			if s.File == prog.Page {
				return
			}
			continue
		}
		if s.File == prog.Page {
			via = s
			return
		}
	}
	return
}

// fromMarker reports whether a fetch's host was built from the input: it
// holds a marker, or the URL has no host and holds one.
func fromMarker(host, url string) bool {
	return strings.Contains(host, Marker) || host == "" && strings.Contains(strings.ToLower(url), Marker)
}

// guessed reports whether a host holds, as a label or the start of one, a
// free-form string of the input (a page literal or an example's value
// tried for a property without enum): a host of that input, not of the
// code.
func guessed(host string, free []string) bool {
	for _, v := range free {
		v = strings.ToLower(v)
		if len(v) < 3 {
			continue
		}
		for i := strings.Index(host, v); i >= 0; {
			if i == 0 || host[i-1] == '.' {
				return true
			}
			j := strings.Index(host[i+1:], v)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}
