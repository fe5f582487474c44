// Package explore runs every function tool of a plugin in fresh
// sandboxes with generated inputs and stubbed responses, and records each
// http.fetch with its call site: what the checker cannot read, it learns
// by running (checker.Exploration; the rules read it from
// checker.Config.Explored).
//
// An exploration run has fake providers only: no network (every fetch is
// answered here, by the plugin's fixture when one matches, else by a
// neutral stub), no secrets (credentials are never resolved; a request
// carries no credential header), collections in memory per run, nothing
// persisted. Time is virtual (timers fire at once, in order).
package explore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// The budget (docs/rules.md, "Exploration"). It is work, not time: a
// tool's exploration is at most Runs runs, a run at most RunTicks ticks
// of the sandbox (sandbox.Job.MaxTicks), and the first run of the plan
// that spends them stops the tool's exploration (stop.go), so it gives
// the same result on a quiet machine and on a loaded one. The wall-time
// bounds are backstops for what ticks do not count (a host call that
// never returns): a result they cut is marked Cut and not kept.
const (
	// DefaultRuns bounds the runs per tool: the schema's examples, a base
	// input, one change at a time per property, then response variants.
	DefaultRuns = 24
	// DefaultRunTicks is one run's budget of work: the page's top level
	// and its call may each take this many ticks (sandbox.TickIterations
	// loop iterations of the sandbox's code or 512 KiB moved a tick, some
	// 800 iterations of a simple JavaScript loop). Time is virtual and
	// every fetch is answered in memory: the corpora's runs take 3 ticks
	// at most (TestCorporaScore holds them under a 20th of the budget),
	// and heavy honest work stays well below it (10,000 objects built and
	// through JSON.stringify and JSON.parse: ~280 ticks; sorted and
	// mapped: ~200; 1,000 URLs parsed: ~70; TestHonestWorkUnderTheBudget),
	// so a tool still going after this many is looping.
	// A plain loop reaches it in ~0.25 s on a quiet machine (~0.15 ms a
	// tick), ~0.7 s with both cores busy; memory-bound work ticks slower
	// (a heap of 100,000 pending fetches: ~1.5 ms a tick quiet).
	DefaultRunTicks = 2000
	// DefaultRunBackstop is one run's wall-time backstop: every answer is
	// in memory, so only a run whose ticks are not counted (a sandbox
	// without its fuel checks) should reach it. ~10× what a looping run
	// takes with both cores busy and a load average of 12 (~2 s), ~4× the
	// slowest-ticking run known there (the heap of pending fetches, ~8 s).
	DefaultRunBackstop = 30 * time.Second
	// DefaultToolBackstop is one tool's wall-time backstop (its runs and
	// the wait for run slots): DefaultRuns runs of the slowest-ticking
	// kind on two loaded cores take ~100 s.
	DefaultToolBackstop = 3 * time.Minute
	// MaxFetchesPerRun is the broker's own cap on calls per run.
	MaxFetchesPerRun = 64
	// version changes the cache key when what a run does changes.
	version = "explore/4"
)

// Options configures an Explorer.
type Options struct {
	Runs         int           // per tool (default DefaultRuns)
	RunTicks     int64         // per run (default DefaultRunTicks)
	RunBackstop  time.Duration // per run (default DefaultRunBackstop)
	ToolBackstop time.Duration // per tool (default DefaultToolBackstop)
	Parallel     int           // runs at once (default GOMAXPROCS)
	// CacheDir keeps the compiled QuickJS module across processes
	// (default: the runner's, <user cache dir>/plugin-lsp/qjs; "-": none).
	CacheDir string
}

// Explorer explores plugins. It keeps results by the content of what a
// tool's bundle depends on, so a re-check explores only the tools whose
// bundle, schema or fixtures changed; a result a backstop or a
// cancellation cut is not kept (the next check explores again). Safe for
// concurrent use.
type Explorer struct {
	opts   Options
	engine *sandbox.Engine
	slots  chan struct{}

	mu      sync.Mutex
	cache   map[string]*checker.Exploration
	running map[string]chan struct{} // keys being explored, closed when done
	// Explored counts the tools explored (not served from the cache).
	explored  int
	benchRuns int // the benchmarks' count of runs (bench_test.go)
	// onRun, set by tests before any exploration, sees every run's outcome.
	onRun func(sandbox.Outcome)
}

// New prepares the sandbox engine.
func New(opts Options) (*Explorer, error) {
	if opts.Runs <= 0 {
		opts.Runs = DefaultRuns
	}
	if opts.RunTicks <= 0 {
		opts.RunTicks = DefaultRunTicks
	}
	if opts.RunBackstop <= 0 {
		opts.RunBackstop = DefaultRunBackstop
	}
	if opts.ToolBackstop <= 0 {
		opts.ToolBackstop = DefaultToolBackstop
	}
	if opts.Parallel <= 0 {
		opts.Parallel = runtime.GOMAXPROCS(0)
	}
	cache := opts.CacheDir
	switch cache {
	case "-":
		cache = ""
	case "":
		// the runner's: the compiled QuickJS module is shared
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "plugin-lsp", "qjs")
			if os.MkdirAll(cache, 0o700) != nil {
				cache = ""
			}
		}
	}
	// No page images: an image is made in a sandbox of its own per page
	// (one more instance and a memory copy for each page explored, up to
	// the engine's 32 images kept), and exploration runs a page a few
	// times (fewer than DefaultRuns), where evaluating it on each run
	// costs no more (BenchmarkCheckSmallPlugins) and keeps nothing.
	eng, err := sandbox.NewEngine(sandbox.Options{CacheDir: cache, Spare: opts.Parallel, NoPageImages: true})
	if err != nil {
		return nil, err
	}
	return &Explorer{opts: opts, engine: eng, slots: make(chan struct{}, opts.Parallel), cache: map[string]*checker.Exploration{}, running: map[string]chan struct{}{}}, nil
}

// Close releases the sandboxes.
func (x *Explorer) Close() { x.engine.Close() }

// Explored is how many tools were explored rather than taken from the
// cache since the Explorer was made.
func (x *Explorer) Explored() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.explored
}

// Plugin explores every function tool of p whose page compiles. A tool
// whose page does not compile is left out (its compile error is the
// static rules' business). ctx cancels it (a newer edit).
func (x *Explorer) Plugin(ctx context.Context, p *checker.Plugin) map[string]*checker.Exploration {
	out := map[string]*checker.Exploration{}
	if p == nil || p.Manifest == nil {
		return out
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	progs := &compiled{m: map[string]*compileOnce{}} // one compile per page of this snapshot
	for _, t := range p.Manifest.Tools {
		name, ok := checker.Str(t.Name)
		if !ok || p.Manifest.FunctionTool(name) == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e := x.tool(ctx, p, name, progs); e != nil {
				mu.Lock()
				out[name] = e
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}

// Tool explores one function tool (nil: it cannot run, or ctx ended).
func (x *Explorer) Tool(ctx context.Context, p *checker.Plugin, name string) *checker.Exploration {
	return x.tool(ctx, p, name, &compiled{m: map[string]*compileOnce{}})
}

// compiled keeps the pages of one plugin snapshot compiled once (tools
// sharing a page share its bundle).
type compiled struct {
	mu sync.Mutex
	m  map[string]*compileOnce
}

type compileOnce struct {
	once sync.Once
	prog *runner.Program
	err  error
}

func (c *compiled) get(p *checker.Plugin, rel string) (*runner.Program, error) {
	c.mu.Lock()
	o := c.m[rel]
	if o == nil {
		o = &compileOnce{}
		c.m[rel] = o
	}
	c.mu.Unlock()
	o.once.Do(func() { o.prog, o.err = runner.Compile(p, rel) })
	return o.prog, o.err
}

func (x *Explorer) tool(ctx context.Context, p *checker.Plugin, name string, progs *compiled) *checker.Exploration {
	t := p.Manifest.FunctionTool(name)
	if t == nil {
		return nil
	}
	page, _ := checker.Str(t.Page)
	rel, ok := p.ResolvePage(page)
	if !ok {
		return nil
	}
	prog, err := progs.get(p, rel)
	if err != nil {
		return nil
	}
	fx, index, err := runner.PluginFixtures(p)
	if err != nil {
		return nil
	}
	reach := capability.FromManifest(p.Manifest)
	var sch schemaOf
	schemaText := ""
	if t.InputSchema != nil {
		sch, _ = t.InputSchema.Interface().(map[string]any)
		if p.ManifestFile != nil && t.InputSchema.Span.End <= len(p.ManifestFile.Text) {
			schemaText = string(p.ManifestFile.Text[t.InputSchema.Span.Start:t.InputSchema.Span.End])
		}
	}
	// The cache key: everything a run depends on.
	h := sha256.New()
	fxText := ""
	if p.FixturesFile != nil {
		fxText = string(p.FixturesFile.Text)
	}
	// (not the tool's name: tools that share a page and a schema run alike)
	for _, s := range []string{version, prog.Code, schemaText, fxText, strings.Join(reach.Host, ",")} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	key := hex.EncodeToString(h.Sum(nil))
	for {
		x.mu.Lock()
		if e := x.cache[key]; e != nil {
			x.mu.Unlock()
			return e
		}
		wait, busy := x.running[key]
		if !busy {
			x.running[key] = make(chan struct{})
			x.explored++
			x.mu.Unlock()
			break
		}
		x.mu.Unlock()
		select { // the same bundle is being explored: take its result
		case <-wait:
		case <-ctx.Done():
			return nil
		}
	}
	defer func() {
		x.mu.Lock()
		close(x.running[key])
		delete(x.running, key)
		x.mu.Unlock()
	}()

	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, x.opts.ToolBackstop)
	defer cancel()
	res := newResult()
	st := newStops()
	run := func(ctx context.Context, r planned, n int) (ending, bool) {
		return x.run(ctx, p, prog, reach, fx.Collections, index, r, n, res)
	}
	ins, nvar := x.plan(sch, prog.Code)
	fetched := st.runs(x, ctx, ins, 0, run)
	var vars []planned
	if !st.stopped() { // a run that looped stops the tool's exploration: no variants after it
		vars = responseVariants(ins, fetched, nvar)
		st.runs(x, ctx, vars, len(ins), run)
	}
	if parent.Err() != nil && context.Cause(parent) == context.Canceled {
		return nil // superseded: nothing is kept
	}
	complete, cut := st.outcome()
	e := res.exploration(append(ins[:len(ins):len(ins)], vars...), st.stop, complete, cut)
	if cut {
		return e // what the wall clock cut depends on the machine's load: not kept
	}
	x.mu.Lock()
	if len(x.cache) > 4096 {
		x.cache = map[string]*checker.Exploration{}
	}
	x.cache[key] = e
	x.mu.Unlock()
	return e
}

// acquire takes a run slot, false when ctx ended first. A slot taken as
// ctx ends is given back: nobody else would (a cancelled exploration that
// kept it took a core from every later one, and once all were kept no
// exploration ran again).
func (x *Explorer) acquire(ctx context.Context) bool {
	select {
	case x.slots <- struct{}{}:
		if ctx.Err() == nil {
			return true
		}
		<-x.slots
	case <-ctx.Done():
	}
	return false
}

// planned is one run: an input and how fetches are answered.
type planned struct {
	input json.RawMessage
	mode  mode
	free  []string // the input's values of free-form string properties
}

// plan spends the run budget: every generated input with fixture-or-{}
// answers (inputs that differ only in which marker a free-form string
// holds are one run: markers are opaque, equivalentInput), and how many
// runs are left for responseVariants.
func (x *Explorer) plan(sch schemaOf, code string) (ins []planned, variants int) {
	n := x.opts.Runs
	if n >= 8 {
		variants = n / 4
	}
	seen := map[string]bool{}
	for _, in := range inputs(sch, pageLiterals(code, 16), n-variants) {
		k := equivalentInput(in)
		if seen[k] {
			continue
		}
		seen[k] = true
		ins = append(ins, planned{input: in, mode: modeFixture, free: freeValues(sch, in)})
	}
	return ins, variants
}

// markerValue is a marker as inputs gives it (Marker and a number).
var markerValue = regexp.MustCompile(Marker + `[0-9]+`)

// equivalentInput is an input with every marker made the same: two inputs
// that differ only in their markers run alike (a page never compares a
// marker with anything it knows; the page's literals are tried as values
// of their own).
func equivalentInput(in json.RawMessage) string {
	return markerValue.ReplaceAllString(string(in), Marker)
}

// responseVariants spends the rest of the budget after the inputs' runs:
// the first inputs again with the other answers ([], 404, 500), so that
// response-dependent branches run. Only inputs whose run fetched get
// them: a run that made no fetch runs alike whatever fetches answer.
// Each input gets each answer once: with fewer such inputs than the
// budget has room for, the rest of it is not spent (the same input and
// answers again run alike).
func responseVariants(ins []planned, fetched []bool, budget int) []planned {
	var with []planned
	for i, in := range ins {
		if fetched[i] {
			with = append(with, in)
		}
	}
	var out []planned
	for i := 0; i < budget && i < 3*len(with); i++ {
		in := with[(i/3)%len(with)]
		in.mode = []mode{modeArray, modeNotFound, modeServerError}[i%3]
		out = append(out, in)
	}
	return out
}

// result gathers the fetches of a tool's runs.
type result struct {
	mu      sync.Mutex
	fetches []seenFetch
	seen    map[string]bool
	methods map[string]int // by the first run (in plan order) that called it
}

func newResult() *result { return &result{seen: map[string]bool{}, methods: map[string]int{}} }

type seenFetch struct {
	run int
	seq int
	f   checker.ExploredFetch
}

func (r *result) add(run, seq int, f checker.ExploredFetch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := f.Site.File + ":" + itoa(f.Site.Line) + " " + f.Host
	if f.Dynamic {
		k = f.Site.File + ":" + itoa(f.Site.Line) + " dynamic"
	}
	if r.seen[k] {
		// keep the first run's input (the one listed first in the plan),
		// and its first call (async calls arrive in any order)
		for i := range r.fetches {
			if o := r.fetches[i]; o.key() == k && (run < o.run || run == o.run && seq < o.seq) {
				r.fetches[i] = seenFetch{run, seq, f}
			}
		}
		return
	}
	r.seen[k] = true
	r.fetches = append(r.fetches, seenFetch{run, seq, f})
}

func (s seenFetch) key() string {
	if s.f.Dynamic {
		return s.f.Site.File + ":" + itoa(s.f.Site.Line) + " dynamic"
	}
	return s.f.Site.File + ":" + itoa(s.f.Site.Line) + " " + s.f.Host
}

func (r *result) method(run int, name string) {
	r.mu.Lock()
	if first, ok := r.methods[name]; !ok || run < first {
		r.methods[name] = run
	}
	r.mu.Unlock()
}

// exploration is what the runs of plan found; stop >= 0: the plan index
// of the run that looped, only the runs up to it count (stops).
func (r *result) exploration(plan []planned, stop int, complete, cut bool) *checker.Exploration {
	r.mu.Lock()
	defer r.mu.Unlock()
	sort.SliceStable(r.fetches, func(i, j int) bool {
		if r.fetches[i].run != r.fetches[j].run {
			return r.fetches[i].run < r.fetches[j].run
		}
		return r.fetches[i].seq < r.fetches[j].seq
	})
	counts := func(run int) bool { return stop < 0 || run <= stop }
	e := &checker.Exploration{Runs: len(plan), Complete: complete, Cut: cut, Fetches: []checker.ExploredFetch{}, Methods: []string{}}
	if stop >= 0 && stop < len(plan) {
		e.Runs, e.Stopped = stop+1, stop+1
		e.StoppedInput, e.StoppedAnswer = string(plan[stop].input), plan[stop].mode.answer()
	}
	for _, f := range r.fetches {
		if counts(f.run) {
			e.Fetches = append(e.Fetches, f.f)
		}
	}
	for m, first := range r.methods {
		if counts(first) {
			e.Methods = append(e.Methods, m)
		}
	}
	sort.Strings(e.Methods)
	return e
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
