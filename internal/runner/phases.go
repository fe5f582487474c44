package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// The phases of Runner.Run, in the order it calls them: validate the
// request, refuse what must not run (preflight), load the fixtures,
// compile the page, grant the host methods, run in the sandbox (Run
// itself), and build the record from what the sandbox gave back. A phase
// that ends the run returns the *record.RunError the record carries.

// phaseClock tells Request.Phases how long each phase took; with no
// Phases it reads no clock.
type phaseClock struct {
	tell func(string, time.Duration)
	t    time.Time
}

func startPhases(tell func(string, time.Duration), start time.Time) phaseClock {
	return phaseClock{tell: tell, t: start}
}

// lap tells the time since the last lap as phase name.
func (c *phaseClock) lap(name string) {
	if c.tell == nil {
		return
	}
	now := time.Now()
	c.tell(name, now.Sub(c.t))
	c.t = now
}

// sandbox tells the sandbox's own phases (they sum to its Duration) and
// starts the next lap at the sandbox's end.
func (c *phaseClock) sandbox(out sandbox.Outcome) {
	if c.tell == nil {
		return
	}
	ph := out.Phases
	for _, x := range []struct {
		n string
		d time.Duration
	}{{"sandbox.acquire", ph.Acquire}, {"sandbox.setup", ph.Setup}, {"sandbox.call", ph.Call}, {"sandbox.wait", ph.Wait}, {"sandbox.deliver", ph.Deliver}, {"sandbox.finish", ph.Finish}} {
		c.tell(x.n, x.d)
	}
	c.t = time.Now()
}

// runPlan is what validate makes of a request.
type runPlan struct {
	tool    *checker.Tool // nil for a bare page
	page    string        // the page as the manifest (or the request) names it
	claim   string        // fn.<tool>, or the bare page's path
	timeout time.Duration
}

// validate checks the request itself; its error is Run's error (misuse,
// not a failed run).
func validate(req Request) (*runPlan, error) {
	p := req.Plugin
	if p == nil || p.Manifest == nil {
		return nil, errors.New("runner: no plugin")
	}
	plan := &runPlan{claim: "fn." + req.Tool}
	if req.Tool == "" && req.Page != "" {
		plan.page, plan.claim = req.Page, req.Page
	} else {
		plan.tool = p.Manifest.FunctionTool(req.Tool)
		if plan.tool == nil {
			return nil, unknownTool(checker.WhyNotRunnable(p.Manifest, req.Tool))
		}
		plan.page, _ = checker.Str(plan.tool.Page)
	}
	switch req.Providers {
	case "", "fake", "real":
	default:
		return nil, fmt.Errorf("runner: providers must be fake or real, not %q", req.Providers)
	}
	if len(req.Input) > 0 && !json.Valid(req.Input) {
		return nil, errors.New("runner: the input is not JSON")
	}
	plan.timeout = req.Timeout
	if plan.timeout <= 0 {
		plan.timeout = DefaultTimeout
	}
	if plan.timeout > MaxTimeout {
		plan.timeout = MaxTimeout
	}
	return plan, nil
}

// serialProgress calls report one message at a time (fetches report from
// their own goroutines); nil reports nothing.
func serialProgress(report func(string)) func(string) {
	if report == nil {
		return func(string) {}
	}
	var mu sync.Mutex
	return func(m string) {
		mu.Lock()
		defer mu.Unlock()
		report(m)
	}
}

// newRecord is the record of a run before it starts: no result, no logs,
// no fetches, the default caps.
func newRecord(claim string, timeout time.Duration) *record.Record {
	return &record.Record{
		Claim:   claim + ":" + callID(),
		Result:  json.RawMessage("null"),
		Logs:    []record.LogEntry{},
		Fetches: []record.FetchEntry{},
		Usage: record.Usage{
			MemoryCapBytes: sandbox.DefaultMemoryCapBytes,
			FetchCap:       broker.DefaultMaxFetches,
			LogCapBytes:    sandbox.DefaultLogCapBytes,
			TimeoutMs:      timeout.Milliseconds(),
		},
	}
}

// runErr is a record.RunError of a phase that ends the run.
func runErr(name, msg, file string, line, col int) *record.RunError {
	return &record.RunError{Name: name, Message: msg, File: file, Line: line, Column: col}
}

// refuseDuplicateKeys: a manifest with a key written twice says two
// things, so it is not run.
func refuseDuplicateKeys(p *checker.Plugin) *record.RunError {
	if d := factsOf(p).dup; d != nil {
		e := *d
		return &e
	}
	return nil
}

// fixturesFor is the fixture set of a run: the request's own (the test
// runner's merge), else the file it names, else the plugin's fixtures.json.
func fixturesFor(p *checker.Plugin, req Request) (*fixtureSet, *record.RunError) {
	if req.Fixtures != nil {
		return newFixtureSet(req.Fixtures), nil
	}
	set, err := loadFixtures(p, req.FixturesPath)
	if err != nil {
		return nil, runErr("FixturesError", err.Error(), checker.FixturesName, 0, 0)
	}
	return set, nil
}

// compilePage resolves the plan's page inside the plugin and compiles it
// (cached by content); rel is the page's plugin-relative path.
func (r *Runner) compilePage(p *checker.Plugin, plan *runPlan, progress func(string)) (prog *Program, rel string, e *record.RunError) {
	rel, ok := p.ResolvePage(plan.page)
	if !ok {
		if _, err := p.ReadFile(rel); err != nil && !errors.Is(err, fs.ErrNotExist) { // a FIFO, a huge file, a symlink leading out
			return nil, rel, runErr("CompileError", "cannot read the page: "+err.Error(), rel, 0, 0)
		}
		return nil, rel, runErr("CompileError", fmt.Sprintf("the page %q of %s does not exist (tried %s)", plan.page, plan.claim, rel), rel, 0, 0)
	}
	progress("compiling " + rel)
	prog, err := r.compile(p, rel)
	if err != nil {
		var ce *CompileError
		if errors.As(err, &ce) {
			return nil, rel, runErr("CompileError", ce.Message, ce.File, ce.Line, ce.Column)
		}
		return nil, rel, runErr("CompileError", err.Error(), rel, 0, 0)
	}
	return prog, rel, nil
}

// grant builds the run's broker (its reach, secrets and provider) and the
// host methods the sandbox may call, from the one capability model: a
// tool gets its plugin's reach, a bare page the minimal grant.
func (r *Runner) grant(req Request, rel string, set *fixtureSet, progress func(string)) (*broker.Broker, []sandbox.Method) {
	p := req.Plugin
	provider := set.x.Provider()
	if req.Providers == "real" {
		provider = r.net
	}
	if req.Recorder != nil {
		provider = req.Recorder.Wrap(provider)
	}
	// A malformed capability entry grants nothing.
	reach := factsOf(p).reach // read only: each run makes its own broker from it
	if req.Tool == "" {
		reach = capability.ReachOfPage(p, rel) // a bare page: the minimal grant
	}
	b := broker.New(broker.Config{
		Reach:    reach,
		Secrets:  broker.SecretStore(capability.PluginName(p.Manifest), set.f, r.cfg.Env),
		Provider: provider,
	})
	if req.Recorder != nil {
		req.Recorder.SetRedactor(b.Redact)
	}
	store := newCollections(set.f.Collections)
	return b, hostMethods(reach, b, store, progress)
}

// acquireSlot waits for one of the MaxConcurrent run slots; false when ctx
// ends first. release gives the slot back.
func (r *Runner) acquireSlot(ctx context.Context) bool {
	select {
	case r.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (r *Runner) releaseSlot() { <-r.slots }

// buildRecord fills rec from the sandbox's outcome: everything the tool
// produced passes through the broker's Redact, and an error is mapped
// back to the source (the page's files, the host call that failed).
func buildRecord(rec *record.Record, out sandbox.Outcome, prog *Program, p *checker.Plugin, b *broker.Broker) {
	rec.OK = out.OK
	if out.OK {
		rec.Result = json.RawMessage(b.RedactBytes(out.Result))
		if !json.Valid(rec.Result) {
			rec.Result = json.RawMessage(strconv.Quote(string(rec.Result)))
		}
	}
	if out.Err != nil {
		rec.Error = mapRunError(out.Err, prog, p, b)
	}
	for _, l := range out.Logs {
		rec.Logs = append(rec.Logs, record.LogEntry{Level: l.Level, Message: b.Redact(l.Message)})
	}
	for _, e := range b.Audit() {
		rec.Fetches = append(rec.Fetches, record.FetchEntry(e))
	}
	rec.Secrets = b.SecretAudit()
	st := b.Stats()
	rec.Usage.FetchCount = st.Calls
	rec.Usage.FetchBytes = st.Bytes
	rec.Usage.LogBytes = out.LogBytes
	rec.Usage.MemoryPeakBytes = out.MemoryPeakBytes
}

// mapRunError is the record's error for the sandbox's: the stack mapped
// through the source map, placed at the host call that failed or at the
// callee of the top frame, redacted.
func mapRunError(se *sandbox.Error, prog *Program, p *checker.Plugin, b *broker.Broker) *record.RunError {
	stack, file, line, col := prog.MapStack(se.Stack)
	placed := false
	if nl, nc, ok := hostCallPosition(p, file, line, col, se.HostCall); ok {
		stack, line, col, placed = replaceFirstFrame(stack, file, line, col, nl, nc), nl, nc, true
	}
	if file != "" {
		stack = calleeFrames(p, stack, placed)
		if !placed {
			file, line, col = topFrame(stack, file, line, col)
		}
	}
	e := &record.RunError{
		Name:    b.Redact(se.Name),
		Message: b.Redact(se.Message),
		Stack:   b.Redact(strings.TrimRight(stack, "\n")),
		File:    file, Line: line, Column: col,
		Path: b.Redact(se.Path),
	}
	if e.File == "" && (se.Kind != sandbox.KindThrown || se.Path != "") {
		e.File = prog.Page
	}
	if se.Path != "" && e.Line == 0 {
		e.Line, e.Column, _ = returnPosition(p, prog.Page)
	}
	return e
}
