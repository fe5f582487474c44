package tooltest

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"maps"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/native"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// DefaultTimeout is a case's deadline unless it or the caller sets one.
const DefaultTimeout = 10 * time.Second

// Options configures Run.
type Options struct {
	Runner runner.ToolRunner
	// Parallel is how many cases run at once (default GOMAXPROCS).
	Parallel int
	// Filter keeps the cases whose ID ("<tool>/<name>") it matches.
	Filter *regexp.Regexp
	// Timeout is the deadline of a case without timeoutMs (default 10 s).
	Timeout time.Duration
	// Update writes the snapshots of snapshot cases (new or changed) and
	// drops stored snapshots no case uses.
	Update bool
	// TrustNative runs the cases of native tools in Node.js with full
	// authority (native.Run); without it they are skipped. Node is the
	// node executable ("" : node on PATH).
	TrustNative bool
	Node        string
	// NativeSkip, when set, decides each native case in place of
	// TrustNative: "" runs it, any other text skips it with that reason
	// (the editor asks per module: internal/ide.NativeTestSkip).
	NativeSkip func(tool string) string
	// NativeRun replaces native.Run (tests).
	NativeRun func(context.Context, native.Request) (*record.Record, error)
}

// Suite is one plugin's tests.
type Suite struct {
	Plugin *checker.Plugin
	Files  []*testcase.File
}

// Load builds the suite of a plugin directory.
func LoadSuite(p *checker.Plugin) (*Suite, error) {
	files, err := Load(p)
	if err != nil {
		return nil, err
	}
	return &Suite{Plugin: p, Files: files}, nil
}

// Run runs the suites' cases (those Filter keeps) in parallel and returns
// their results in file and case order. A file with problems yields one
// Broken result per problem. With Update, snapshot files are written.
func Run(ctx context.Context, suites []*Suite, opt Options) ([]testcase.Result, error) {
	if opt.Runner == nil {
		return nil, fmt.Errorf("tooltest: no runner")
	}
	if opt.Parallel <= 0 {
		opt.Parallel = runtime.GOMAXPROCS(0)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	type job struct {
		s   *Suite
		c   *testcase.Case
		fx  *broker.Fixtures
		fxe error
		snp *snapshots
		i   int
	}
	var results []testcase.Result
	var jobs []job
	for _, s := range suites {
		base, baseErr := pluginFixtures(s.Plugin)
		for _, f := range s.Files {
			if len(f.Problems) > 0 {
				for _, pr := range f.Problems {
					results = append(results, testcase.Result{Plugin: s.Plugin.Dir, File: f.Rel, Line: line(f, pr.Span.Start), Name: "(file)", Status: testcase.Broken,
						Failures: []testcase.Failure{{Path: f.Rel + ":" + f.Pos(pr.Span.Start), Message: pr.Message}}})
				}
				continue
			}
			snp := loadSnapshots(s.Plugin, f)
			for _, c := range f.Cases {
				if opt.Filter != nil && !opt.Filter.MatchString(c.ID()) {
					continue
				}
				results = append(results, testcase.Result{Case: c, Plugin: s.Plugin.Dir, File: f.Rel, Line: line(f, c.Span.Start), Tool: c.Tool, Name: c.Name})
				jobs = append(jobs, job{s: s, c: c, fx: base, fxe: baseErr, snp: snp, i: len(results) - 1})
			}
		}
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for range min(opt.Parallel, max(1, len(jobs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				runCase(ctx, opt, j.s.Plugin, j.c, j.fx, j.fxe, j.snp, &results[j.i])
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	if opt.Update {
		written := map[*snapshots]bool{}
		for _, j := range jobs {
			if written[j.snp] {
				continue
			}
			written[j.snp] = true
			if err := j.snp.save(j.s.Plugin, opt.Filter == nil); err != nil {
				return results, err
			}
		}
	}
	return results, nil
}

func line(f *testcase.File, off int) int {
	var l int
	fmt.Sscanf(f.Pos(off), "%d:", &l)
	return l
}

// pluginFixtures parses the plugin's fixtures.json once per suite.
func pluginFixtures(p *checker.Plugin) (*broker.Fixtures, error) {
	if p.FixturesFile == nil {
		return &broker.Fixtures{}, nil
	}
	f, err := fixtures.Parse(p.FixturesFile.Text)
	if err != nil {
		return nil, fmt.Errorf("%s:%v", checker.FixturesName, err)
	}
	return f, nil
}

// merge puts a case's fixtures in front of the plugin's.
func merge(base *broker.Fixtures, raw json.RawMessage) (*broker.Fixtures, error) {
	if len(raw) == 0 {
		return base, nil
	}
	c, err := fixtures.Parse(raw)
	if err != nil {
		return nil, err
	}
	out := &broker.Fixtures{
		FnFetch:     append(slices.Clone(c.FnFetch), base.FnFetch...),
		Secrets:     maps.Clone(base.Secrets),
		Collections: maps.Clone(base.Collections),
	}
	if out.Secrets == nil {
		out.Secrets = map[string]string{}
	}
	if out.Collections == nil {
		out.Collections = map[string]json.RawMessage{}
	}
	maps.Copy(out.Secrets, c.Secrets)
	maps.Copy(out.Collections, c.Collections)
	return out, nil
}

func runCase(ctx context.Context, opt Options, p *checker.Plugin, c *testcase.Case, base *broker.Fixtures, baseErr error, snp *snapshots, res *testcase.Result) {
	start := time.Now()
	defer func() { res.DurationMs = float64(time.Since(start).Microseconds()) / 1000 }()
	broken := func(msg string) {
		res.Status = testcase.Broken
		res.Failures = append(res.Failures, testcase.Failure{Path: "fixtures", Message: msg})
	}
	if baseErr != nil {
		broken(baseErr.Error())
		return
	}
	fx, err := merge(base, c.Fixtures)
	if err != nil {
		broken("the case's fixtures: " + err.Error())
		return
	}
	timeout := opt.Timeout
	if c.TimeoutMs > 0 {
		timeout = time.Duration(c.TimeoutMs) * time.Millisecond
	}
	var rec *record.Record
	if mod, ok := native.IsNativeTool(p.Manifest, c.Tool); ok && p.Manifest.FunctionTool(c.Tool) == nil {
		skip := ""
		switch {
		case opt.NativeSkip != nil:
			skip = opt.NativeSkip(c.Tool)
		case !opt.TrustNative:
			skip = fmt.Sprintf("%s is a native tool (%s): it runs in Node.js with full authority; run the tests with --trust-native", c.Tool, mod)
		}
		if skip != "" {
			res.Status = testcase.Skip
			res.Skipped = skip
			return
		}
		if c.Ctx != nil {
			if fx == base {
				fx = &broker.Fixtures{FnFetch: base.FnFetch, Secrets: maps.Clone(base.Secrets), Collections: maps.Clone(base.Collections)}
			}
			if fx.Secrets == nil {
				fx.Secrets = map[string]string{}
			}
			if fx.Collections == nil {
				fx.Collections = map[string]json.RawMessage{}
			}
			maps.Copy(fx.Secrets, c.Ctx.Secrets)
			maps.Copy(fx.Collections, c.Ctx.Collections)
		}
		nreq := native.Request{Plugin: p, Tool: c.Tool, Input: c.Input, Fixtures: fx, Providers: "fake", Timeout: timeout, Node: opt.Node}
		if c.Ctx != nil {
			nreq.Storage = c.Ctx.Storage
		}
		if nreq.Input == nil {
			nreq.Input = json.RawMessage("null")
		}
		nrun := opt.NativeRun
		if nrun == nil {
			nrun = native.Run
		}
		rec, err = nrun(ctx, nreq)
	} else {
		rec, err = opt.Runner.Run(ctx, runner.Request{Plugin: p, Tool: c.Tool, Input: c.Input, Fixtures: fx, Providers: "fake", Timeout: timeout})
	}
	if err != nil {
		res.Status = testcase.Broken
		res.Failures = append(res.Failures, testcase.Failure{Path: "tool", Message: err.Error()})
		return
	}
	res.Record = rec
	res.Failures = Check(c, rec, snp, opt.Update, &res.Snapshot)
	if len(res.Failures) == 0 {
		res.Status = testcase.Pass
	} else {
		res.Status = testcase.Fail
	}
}

// Check compares a run record with what the case expects. With update, a
// snapshot case's result becomes its snapshot (written is set to
// "written" when it changed) instead of being compared.
func Check(c *testcase.Case, rec *record.Record, snp *snapshots, update bool, written *string) []testcase.Failure {
	var out []testcase.Failure
	threw := func() testcase.Failure {
		f := testcase.Failure{Path: "error", Message: "the tool threw " + rec.Error.Name + ": " + rec.Error.Message}
		if rec.Error.File != "" && rec.Error.Line > 0 {
			f.Message += fmt.Sprintf(" (%s:%d:%d)", rec.Error.File, rec.Error.Line, rec.Error.Column)
		}
		return f
	}
	switch {
	case c.Error != nil:
		if rec.OK || rec.Error == nil {
			out = append(out, testcase.Failure{Path: "error", Message: "the tool returned instead of throwing", Expected: errorText(c.Error), Actual: text(json.RawMessage(rec.Result))})
			break
		}
		if c.Error.Name != nil && *c.Error.Name != rec.Error.Name {
			out = append(out, testcase.Failure{Path: "error.name", Message: "differs", Expected: quoteJSON(*c.Error.Name), Actual: quoteJSON(rec.Error.Name)})
		}
		if c.Error.Message != nil && !strings.Contains(rec.Error.Message, *c.Error.Message) {
			out = append(out, testcase.Failure{Path: "error.message", Message: "does not contain the expected text", Expected: quoteJSON(*c.Error.Message), Actual: quoteJSON(rec.Error.Message)})
		}
	case !rec.OK && rec.Error != nil:
		out = append(out, threw())
	default:
		if len(c.Result) > 0 {
			out = append(out, diffJSON("result", c.Result, rec.Result, true)...)
		}
		if len(c.ResultContains) > 0 {
			out = append(out, diffJSON("result", c.ResultContains, rec.Result, false)...)
		}
		if c.Snapshot {
			out = append(out, snp.check(c, rec.Result, update, written)...)
		}
	}
	if c.HasFetches {
		out = append(out, checkFetches(c.Fetches, rec.Fetches)...)
	}
	if c.HasLogs {
		out = append(out, checkLogs(c.Logs, rec.Logs)...)
	}
	if c.HasConnections {
		out = append(out, checkConnections(c.Connections, rec.Connections)...)
	}
	return out
}

func checkConnections(want []testcase.ConnectionExpect, got []record.Connection) []testcase.Failure {
	var out []testcase.Failure
	for i := 0; i < len(want) && i < len(got); i++ {
		w, g := want[i], got[i]
		p := fmt.Sprintf("connections[%d]", i)
		if w.Protocol != nil && *w.Protocol != g.Protocol {
			out = append(out, testcase.Failure{Path: p + ".protocol", Message: "differs", Expected: quoteJSON(*w.Protocol), Actual: quoteJSON(g.Protocol)})
		}
		if w.Host != nil && !strings.EqualFold(*w.Host, g.Host) {
			out = append(out, testcase.Failure{Path: p + ".host", Message: "differs", Expected: quoteJSON(*w.Host), Actual: quoteJSON(g.Host)})
		}
		if w.Port != nil && *w.Port != g.Port {
			out = append(out, testcase.Failure{Path: p + ".port", Message: "differs", Expected: fmt.Sprint(*w.Port), Actual: fmt.Sprint(g.Port)})
		}
		if w.Refused != nil && *w.Refused != g.Refused {
			out = append(out, testcase.Failure{Path: p + ".refused", Message: "differs", Expected: quoteJSON(*w.Refused), Actual: quoteJSON(g.Refused)})
		}
	}
	for i := len(got); i < len(want); i++ {
		out = append(out, testcase.Failure{Path: fmt.Sprintf("connections[%d]", i), Message: "missing: the run opened only " + plural(len(got), "connection", "connections"), Expected: text(want[i])})
	}
	for i := len(want); i < len(got); i++ {
		out = append(out, testcase.Failure{Path: fmt.Sprintf("connections[%d]", i), Message: "unexpected", Actual: quoteJSON(fmt.Sprintf("%s %s:%d", got[i].Protocol, got[i].Host, got[i].Port))})
	}
	return out
}

func errorText(e *testcase.ErrorExpect) string {
	m := map[string]string{}
	if e.Name != nil {
		m["name"] = *e.Name
	}
	if e.Message != nil {
		m["message"] = *e.Message
	}
	return text(m)
}

func checkFetches(want []testcase.FetchExpect, got []record.FetchEntry) []testcase.Failure {
	var out []testcase.Failure
	for i := 0; i < len(want) && i < len(got); i++ {
		w, g := want[i], got[i]
		p := fmt.Sprintf("fetches[%d]", i)
		if w.Method != nil && !strings.EqualFold(*w.Method, g.Method) {
			out = append(out, testcase.Failure{Path: p + ".method", Message: "differs", Expected: quoteJSON(*w.Method), Actual: quoteJSON(g.Method)})
		}
		if w.URL != nil && !fixtures.SameURL(*w.URL, g.URL) {
			out = append(out, testcase.Failure{Path: p + ".url", Message: "differs", Expected: quoteJSON(*w.URL), Actual: quoteJSON(g.URL)})
		}
		if w.Status != nil && *w.Status != g.Status {
			out = append(out, testcase.Failure{Path: p + ".status", Message: "differs", Expected: fmt.Sprint(*w.Status), Actual: fmt.Sprint(g.Status)})
		}
		if w.Credentials != nil {
			a, b := slices.Clone(*w.Credentials), slices.Clone(g.Credentials)
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				out = append(out, testcase.Failure{Path: p + ".credentials", Message: "differs", Expected: text(*w.Credentials), Actual: text(g.Credentials)})
			}
		}
		if w.Refused != nil && *w.Refused != g.Refused {
			out = append(out, testcase.Failure{Path: p + ".refused", Message: "differs", Expected: quoteJSON(*w.Refused), Actual: quoteJSON(g.Refused)})
		}
	}
	for i := len(got); i < len(want); i++ {
		out = append(out, testcase.Failure{Path: fmt.Sprintf("fetches[%d]", i), Message: "missing: the run made only " + plural(len(got), "fetch", "fetches"), Expected: text(want[i])})
	}
	for i := len(want); i < len(got); i++ {
		out = append(out, testcase.Failure{Path: fmt.Sprintf("fetches[%d]", i), Message: "unexpected", Actual: quoteJSON(got[i].Method + " " + got[i].URL)})
	}
	return out
}

func checkLogs(want []testcase.LogExpect, got []record.LogEntry) []testcase.Failure {
	var out []testcase.Failure
	for i := 0; i < len(want) && i < len(got); i++ {
		w, g := want[i], got[i]
		p := fmt.Sprintf("logs[%d]", i)
		if w.Level != nil && *w.Level != g.Level {
			out = append(out, testcase.Failure{Path: p + ".level", Message: "differs", Expected: quoteJSON(*w.Level), Actual: quoteJSON(g.Level)})
		}
		if w.Message != nil && !strings.Contains(g.Message, *w.Message) {
			out = append(out, testcase.Failure{Path: p + ".message", Message: "does not contain the expected text", Expected: quoteJSON(*w.Message), Actual: quoteJSON(g.Message)})
		}
	}
	for i := len(got); i < len(want); i++ {
		out = append(out, testcase.Failure{Path: fmt.Sprintf("logs[%d]", i), Message: "missing: the run logged only " + plural(len(got), "line", "lines"), Expected: text(want[i])})
	}
	for i := len(want); i < len(got); i++ {
		out = append(out, testcase.Failure{Path: fmt.Sprintf("logs[%d]", i), Message: "unexpected", Actual: quoteJSON(got[i].Level + ": " + got[i].Message)})
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
