package sandbox

import (
	"bytes"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fastschema/qjs"
	"github.com/tetratelabs/wazero/api"
)

// HostFunc implements one host method. args are the JSON values the tool
// passed. The error's text is shown to the tool as an Error message, so it
// must not carry secrets or host detail.
type HostFunc func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error)

// Method is one granted host method ("http.fetch", "collections.get").
// Async methods run on their own goroutine, so that Promise.all calls run
// in parallel; the others answer inline on the JS thread.
type Method struct {
	Name  string
	Async bool
	Fn    HostFunc
}

// Job is one call of a page's default export.
type Job struct {
	// Name is the script name that appears in stack traces ("page.js").
	Name string
	// Code is a script that sets globalThis.__page to the page's exports
	// (esbuild's IIFE format with globalName __page).
	Code string
	// Input is the tool's argument (JSON; empty means null).
	Input json.RawMessage
	// Methods are the granted host methods; nil grants nothing.
	Methods []Method
	// Timeout is the wall deadline (default 30 s).
	Timeout time.Duration
	// MaxTicks is the run's budget of work, in ticks (stopcheck.go: a tick
	// every fuelPerTick loop iterations or bytes moved in bulk): the
	// page's top level may take MaxTicks ticks, and so may the call, counted
	// again from zero when it starts (so a run whose page comes from a page
	// image is stopped after the same work as one that evaluated it). The
	// tick that reaches it stops the run (KindTicks): the same amount of
	// work on any machine, however loaded, where Timeout is wall time.
	// 0: no budget. Without the fuel checks (instanceMaker.fuel false) it
	// is not enforced and Timeout alone bounds the run.
	MaxTicks int64
	// VirtualTime runs timers on a clock of their own: a timer fires as
	// soon as nothing else is ready, in the order of its due time, and the
	// clock jumps to it (a 30 s back-off costs nothing). Exploration uses it.
	VirtualTime bool
	// CallSites hands every host call the stack of the page where it was
	// made (CallSite(ctx), QuickJS's frames, positions in Code).
	CallSites bool
}

type siteKey struct{}

// CallSite is the stack (QuickJS's frames of the generated script) of the
// host call whose context ctx is, when the job asked for CallSites.
func CallSite(ctx context.Context) string {
	s, _ := ctx.Value(siteKey{}).(string)
	return s
}

// ErrAborted is the cause of a host call's context when the tool aborted
// the call with an AbortSignal.
var ErrAborted = errors.New("the tool aborted it (AbortSignal)")

// Error kinds of a failed run.
const (
	KindThrown    = "thrown"    // the tool threw or its promise rejected
	KindTimeout   = "timeout"   // the wall deadline passed
	KindTicks     = "ticks"     // the tick budget (Job.MaxTicks) was spent
	KindCanceled  = "canceled"  // the caller's context ended
	KindMemory    = "memory"    // the 128 MiB cap was hit
	KindStack     = "stack"     // stack overflow
	KindUnsettled = "unsettled" // the promise can never settle
	KindCompile   = "compile"   // the page did not evaluate
	KindInternal  = "internal"  // the sandbox itself failed
)

// TickIterations is how many loop iterations of the sandbox's code (of
// QuickJS's interpreter and its C functions, not of the page's JavaScript:
// a simple JavaScript loop makes some 800 iterations a tick) make one
// tick, the unit of Job.MaxTicks.
const TickIterations = fuelPerTick

// Error is why a run did not return a value.
type Error struct {
	Kind    string
	Name    string
	Message string
	Stack   string // raw QuickJS frames, positions in the generated script
	Path    string // ResultError: where the value that is not JSON sits (result.items[3])
	// HostCall is the host method whose call failed ("http.fetch"), when
	// the error is the one that call rejected with.
	HostCall string
}

// Log is one console call.
type Log struct {
	Level   string
	Message string
}

// Outcome is what one run produced.
type Outcome struct {
	OK              bool
	Result          json.RawMessage
	Err             *Error
	Logs            []Log
	LogBytes        int64
	LogTruncated    bool // the cap was reached; later output was dropped
	MemoryPeakBytes int64
	Duration        time.Duration
	// Ticks is the work the call took (Job.MaxTicks: counted from the
	// call's start); 0 without the fuel checks.
	Ticks int64
	// Phases is where Duration went.
	Phases Phases
}

// Phases is where a run's time went, read off the monotonic clock a few
// times per run (the phase table of scripts and benchmarks).
type Phases struct {
	Acquire time.Duration // a prepared sandbox taken (a spare, an image restored) or made
	Setup   time.Duration // host objects installed and the page evaluated, where no image had them
	Call    time.Duration // __sb.start(): the default export called, until it first waits
	Wait    time.Duration // waiting for host results and timers (the fetch hand-off)
	Deliver time.Duration // results and timers delivered into the page, its reactions run
	Finish  time.Duration // host goroutines joined, memory size read
}

// sandbox is one prepared runtime: prelude loaded, no page yet.
type sandbox struct {
	leaky  bool // never close the instance (soak comparison)
	maker  *instanceMaker
	mod    api.Module
	reg    *qjs.ProxyRegistry
	rt     *qjs.Runtime
	ctx    context.Context
	cancel context.CancelFunc
	// stop is what the instance's ticks read (stopcheck.go): halted stops
	// it at its next tick, limit at a number of ticks. nil: wazero watches
	// ctx instead.
	stop  *stopState
	fuel  api.MutableGlobal // the instance's fuel (fuelExport), with stop
	run   *runState         // set while a job runs
	stray int               // host calls made with no run attached (pageimage.go)
	// scratch is newString's buffer in the sandbox's memory (0: none yet).
	scratch uint64
	mu      sync.Mutex

	// img is the image the memory is a copy of (the engine's, or a set's
	// with its host objects installed); nil: prepared the slow way.
	img *image
}

// runState is the Go side of one job: what the bridge reads and writes.
type runState struct {
	job     *Job
	ctx     context.Context
	stop    *stopState // the instance's ticks (nil without the fuel checks)
	methods map[string]Method
	logCap  int
	resCap  int

	logs         []Log
	logBytes     int64
	logTruncated bool

	done    bool
	outcome Outcome
	// evaluated: the page's module code ran to its end in this run
	// (what a page image of it may be made from, pageimage.go).
	evaluated bool

	mu        sync.Mutex
	nextID    int
	inflight  int
	completed []hostResult
	text      []byte // of the result taken last, until the prelude takes it
	delivered int    // bytes taken by the current __sb.deliver()
	// queued is the bytes of completed; taken signals a take.
	queued  int
	taken   chan struct{}
	wake    chan struct{}
	cancels map[int]context.CancelCauseFunc // async calls in flight (AbortSignal)

	timers timerHeap
	seq    int
	// vnow is the virtual clock (Job.VirtualTime); site the stack the
	// prelude sent for the host call it makes next (Job.CallSites).
	vnow time.Time
	site string
}

// prepare makes a sandbox: a new instance whose memory is a copy of the
// engine's image (prelude loaded; instance.go), or, before the image
// exists or without one, a new QuickJS runtime with the prelude loaded.
func (e *Engine) prepare() (sb *sandbox, err error) { return e.prepareFrom(e.img) }

// prepareFrom makes a sandbox from img: the engine's image, or an image
// of a set of granted methods (same runtime, context and proxies; only
// install ever ran in it).
func (e *Engine) prepareFrom(img *image) (sb *sandbox, err error) {
	ctx, cancel := context.WithCancel(context.Background())
	sb = &sandbox{ctx: ctx, cancel: cancel, leaky: e.skipWazeroClose, maker: e.maker}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sandbox: preparing a runtime: %v", firstLine(fmt.Sprint(r)))
		}
		if err != nil {
			sb.close()
			sb = nil
		}
	}()
	if e.img == nil {
		img = nil // no image yet (NewEngine's first runtime) or none at all
	}
	sb.rt, sb.mod, sb.reg, err = e.maker.newRuntime(ctx, e.options(), img)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if e.maker.fuel {
		sb.stop = e.maker.stopOf(sb.mod)
		if sb.fuel, _ = sb.mod.ExportedGlobal(fuelExport).(api.MutableGlobal); sb.fuel == nil {
			return nil, errors.New("sandbox: the module does not export its fuel")
		}
	}
	if img != nil {
		sb.img = img
		// The image's bridge and context are proxies 1 and 2 (takeImage):
		// this sandbox's own take their places.
		sb.reg.Register(qjs.Function(sb.bridge))
		sb.reg.Register(sb.rt.Context())
		return sb, nil
	}
	c := sb.rt.Context()
	c.SetFunc("__bridge", sb.bridge)
	bc := e.prelude
	if bc == nil {
		// NewEngine's first runtime: compile only (nothing runs), keep the
		// bytecode for every later runtime. Loading bytecode costs ~0.9 ms
		// against ~4.7 ms to parse the prelude's source in the sandbox.
		if bc, err = c.Compile("<prelude>", qjs.Code(preludeSource())); err != nil {
			return nil, fmt.Errorf("sandbox: prelude: %w", err)
		}
		if len(bc) == 0 {
			return nil, errors.New("sandbox: prelude: empty bytecode")
		}
		e.prelude = bc
	}
	v, err := c.Eval("<prelude>", qjs.Bytecode(bc))
	if err != nil {
		return nil, fmt.Errorf("sandbox: prelude: %w", err)
	}
	v.Free()
	return sb, nil
}

// halt stops whatever runs in the sandbox: at its next tick (within
// fuelPerTick loop iterations) the call into the instance ends, or, without
// the fuel checks, wazero closes the instance from the call's watcher (ctx).
func (sb *sandbox) halt() {
	if sb.stop != nil {
		sb.stop.halted.Store(true)
	}
	sb.cancel()
}

// resetTicks starts the count of ticks again, with the fuel full: from
// here the instance ticks as a new one would (Job.MaxTicks).
func (sb *sandbox) resetTicks() {
	if sb.stop != nil {
		sb.fuel.Set(fuelPerTick)
		sb.stop.ticks.Store(0)
	}
}

// close discards the instance and its memory. QuickJS's own teardown
// (QJS_Free, which walks the whole heap) is skipped: nothing of the
// instance outlives it.
func (sb *sandbox) close() {
	if sb == nil {
		return
	}
	sb.cancel()
	if sb.mod == nil || sb.leaky {
		return
	}
	sb.maker.forget(sb.mod)
	sb.rt, sb.mod, sb.reg = nil, nil, nil
}

// Run runs job in a fresh sandbox and closes it. It never panics: every
// failure of the tool or of the runtime is an Outcome with Err set.
func (e *Engine) Run(ctx context.Context, job Job) Outcome {
	start := time.Now()
	if job.Timeout <= 0 {
		job.Timeout = 30 * time.Second
	}
	// The granted host objects: from the image of this set of methods
	// when there is one (instance.go), else installed now and the image
	// made off the run's path for the next runs.
	key := methodsKey(job.Methods)
	setImg := e.sets.get(key)
	pkey := pageKey(key, job.Name, job.Code)
	var pageImg *image
	if !e.opts.NoPageImages {
		pageImg = e.pageImgs.get(pkey)
	}
	want := setImg
	if pageImg != nil {
		want = pageImg
	} else if want == nil {
		want = e.img
	}
	sb, err := e.get(want)
	if err != nil {
		return Outcome{Err: &Error{Kind: KindInternal, Name: "SandboxError", Message: err.Error()}, Duration: time.Since(start)}
	}
	acquired := time.Now()
	// Freeing the runtime (~1 ms) happens after Run returns; Engine.Close
	// waits for it, so nothing outlives the engine.
	defer e.closeLater(sb)
	runCtx, cancel := context.WithTimeout(ctx, job.Timeout)
	defer cancel()
	// The run's end stops the sandbox (one watcher per run, not per call).
	stop := context.AfterFunc(runCtx, sb.halt)
	defer stop()
	rs := &runState{
		job: &job, ctx: runCtx, methods: map[string]Method{}, stop: sb.stop,
		logCap: e.opts.LogCapBytes, resCap: e.opts.ResultCapBytes,
		wake: make(chan struct{}, 1), taken: make(chan struct{}, 1),
	}
	for _, m := range job.Methods {
		rs.methods[m.Name] = m
	}
	if sb.stop != nil && job.MaxTicks > 0 {
		sb.stop.limit.Store(job.MaxTicks)
	}
	evaluated := pageImg != nil
	installed := setImg != nil || evaluated
	switch {
	case evaluated:
		e.next.Store(pageImg) // the next spares are made from it
		e.fromPageImage.Add(1)
	case installed:
		e.next.Store(setImg)
		if !e.opts.NoPageImages {
			defer func() {
				if rs.evaluated { // a top level the deadline stopped gets no image
					e.makePageImage(pkey, setImg, job.Name, job.Code, job.Timeout)
				}
			}()
		}
	default:
		defer e.makeSetImage(key)
	}
	sb.mu.Lock()
	sb.run = rs
	sb.mu.Unlock()
	var ph Phases
	out := sb.drive(runCtx, rs, &e.pages, installed, evaluated, &ph)
	driven := time.Now()
	stop()    // nothing runs in the sandbox any more: no goroutine to halt it
	cancel()  // host calls still in flight (a lost Promise.race) stop now
	rs.wait() // and no host goroutine outlives the run
	out.Logs, out.LogBytes, out.LogTruncated = rs.logs, rs.logBytes, rs.logTruncated
	out.MemoryPeakBytes = sb.memorySize()
	if sb.stop != nil {
		out.Ticks = sb.stop.ticks.Load()
	}
	if out.Err != nil && out.Err.Kind == KindThrown && out.MemoryPeakBytes >= DefaultMemoryCapBytes-4*PageSize {
		// QuickJS out of memory may throw null (it cannot allocate the error).
		out.Err = &Error{Kind: KindMemory, Name: "InternalError",
			Message: fmt.Sprintf("out of memory: the sandbox is capped at %d MiB", DefaultMemoryCapBytes>>20)}
	}
	end := time.Now()
	ph.Acquire, ph.Finish = acquired.Sub(start), end.Sub(driven)
	out.Phases = ph
	out.Duration = end.Sub(start)
	return out
}

func (sb *sandbox) memorySize() (n int64) {
	defer func() { recover() }()
	if sb.rt == nil {
		return 0
	}
	if m := sb.rt.Mem(); m != nil {
		return int64(m.Size())
	}
	return 0
}

// drive evaluates the page, starts the call and runs the event loop: Go
// waits for host results and timers, JS runs only inside Eval.
func (sb *sandbox) drive(ctx context.Context, rs *runState, cc *codeCache, installed, evaluated bool, ph *Phases) (out Outcome) {
	t := time.Now()
	lap := func(d *time.Duration) {
		now := time.Now()
		*d += now.Sub(t)
		t = now
	}
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Err: rs.panicError(r)}
		}
	}()
	if len(rs.job.Code) == 0 {
		return Outcome{Err: &Error{Kind: KindCompile, Name: "CompileError", Message: "the page is empty"}}
	}
	if !installed {
		if err := sb.install(methodsKey(rs.job.Methods)); err != nil {
			return Outcome{Err: rs.evalError(err, KindInternal)}
		}
	}
	if !evaluated {
		if err := sb.evalPage(cc, rs.job.Name, rs.job.Code); err != nil {
			return Outcome{Err: rs.evalError(err, KindCompile)}
		}
		rs.evaluated = true
	}
	lap(&ph.Setup)
	if rs.done {
		return rs.outcome
	}
	sb.resetTicks() // the call's own budget (Job.MaxTicks)
	err := sb.eval("<start>", "__sb.start()")
	lap(&ph.Call)
	if err != nil {
		return Outcome{Err: rs.evalError(err, KindThrown)}
	}
	for !rs.done {
		rs.mu.Lock()
		nothingLeft := rs.inflight == 0 && len(rs.completed) == 0 && len(rs.timers) == 0
		rs.mu.Unlock()
		if nothingLeft {
			return Outcome{Err: &Error{Kind: KindUnsettled, Name: "UnsettledError",
				Message: "the tool's promise never settles: nothing is left that could settle it (no pending fetch or timer)"}}
		}
		var timerC <-chan time.Time
		var tm *time.Timer
		if rs.job.VirtualTime && len(rs.timers) > 0 {
			// host results first, then the next timer at once
			// (a fetch in flight answers before any timer: in virtual
			// time a host call takes no time)
			rs.mu.Lock()
			busy := len(rs.completed) > 0 || rs.inflight > 0
			rs.mu.Unlock()
			if !busy {
				t := heap.Pop(&rs.timers).(*timer)
				if t.due.After(rs.vnow) {
					rs.vnow = t.due
				}
				if ctx.Err() != nil {
					return Outcome{Err: rs.ctxError()}
				}
				lap(&ph.Wait)
				err := sb.eval("<timer>", "__sb.fire("+strconv.Itoa(t.id)+")")
				lap(&ph.Deliver)
				if err != nil {
					return Outcome{Err: rs.evalError(err, KindThrown)}
				}
				continue
			}
		}
		if len(rs.timers) > 0 && !rs.job.VirtualTime {
			d := time.Until(rs.timers[0].due)
			if d < 0 {
				d = 0
			}
			tm = time.NewTimer(d)
			timerC = tm.C
		}
		select {
		case <-ctx.Done():
			if tm != nil {
				tm.Stop()
			}
			return Outcome{Err: rs.ctxError()}
		case <-rs.wake:
			if tm != nil {
				tm.Stop()
			}
			if ctx.Err() != nil { // select picks at random when both are ready
				return Outcome{Err: rs.ctxError()}
			}
			rs.mu.Lock()
			rs.delivered = 0
			rs.mu.Unlock()
			lap(&ph.Wait)
			err := sb.eval("<deliver>", "__sb.deliver()")
			lap(&ph.Deliver)
			if err != nil {
				return Outcome{Err: rs.evalError(err, KindThrown)}
			}
		case <-timerC:
			tm := heap.Pop(&rs.timers).(*timer)
			lap(&ph.Wait)
			err := sb.eval("<timer>", "__sb.fire("+strconv.Itoa(tm.id)+")")
			lap(&ph.Deliver)
			if err != nil {
				return Outcome{Err: rs.evalError(err, KindThrown)}
			}
		}
	}
	return rs.outcome
}

// methodsKey names a set of granted methods: the JSON list the prelude's
// install takes, sorted (a set: the same methods in another order are the
// same host objects, one set image and one page image per page, not one
// per order).
func methodsKey(methods []Method) string {
	names := make([]string, 0, len(methods))
	for _, m := range methods {
		names = append(names, m.Name)
	}
	slices.Sort(names)
	mj, _ := json.Marshal(names)
	return string(mj)
}

func (sb *sandbox) install(key string) error {
	return sb.eval("<install>", "__sb.install("+strconv.Quote(key)+")")
}

func (sb *sandbox) eval(name, code string) error {
	v, err := sb.rt.Context().Eval(name, qjs.Code(code))
	if err != nil {
		return err
	}
	v.Free()
	return nil
}

// wait blocks until every host goroutine of the run has returned (they
// watch rs.ctx, which is cancelled when Run returns).
func (rs *runState) wait() {
	for {
		rs.mu.Lock()
		n := rs.inflight
		rs.mu.Unlock()
		if n == 0 {
			return
		}
		<-rs.wake
	}
}

// stopped is why the run was stopped from outside its code: its tick
// budget spent (the instance stopped itself at that tick), its deadline
// or its caller's context; nil when nothing stopped it.
func (rs *runState) stopped() *Error {
	if rs.stop != nil && rs.stop.spent.Load() {
		return &Error{Kind: KindTicks, Name: "TimeoutError",
			Message: fmt.Sprintf("the run was stopped after %d ticks of work (its budget)", rs.job.MaxTicks)}
	}
	if rs.ctx.Err() != nil {
		return rs.ctxError()
	}
	return nil
}

func (rs *runState) ctxError() *Error {
	if errors.Is(rs.ctx.Err(), context.DeadlineExceeded) {
		return &Error{Kind: KindTimeout, Name: "TimeoutError",
			Message: fmt.Sprintf("the run was stopped after %s (the wall deadline)", rs.job.Timeout)}
	}
	return &Error{Kind: KindCanceled, Name: "CanceledError", Message: "the run was cancelled"}
}

// panicError turns a panic out of qjs/wazero (module closed by the
// deadline, wasm trap) into an Error. Go stacks never reach the tool or
// the record.
func (rs *runState) panicError(r any) *Error {
	if e := rs.stopped(); e != nil {
		return e
	}
	msg := fmt.Sprint(r)
	switch {
	case strings.Contains(msg, "out of bounds memory access") || strings.Contains(msg, "stack overflow") ||
		strings.Contains(msg, "call stack exhausted"):
		return &Error{Kind: KindStack, Name: "RangeError",
			Message: "stack overflow: the sandbox's stack holds a few hundred nested calls (the runtime was stopped)"}
	case strings.Contains(msg, "out of memory") || strings.Contains(msg, "failed to allocate"):
		return &Error{Kind: KindMemory, Name: "InternalError",
			Message: fmt.Sprintf("out of memory: the sandbox is capped at %d MiB", DefaultMemoryCapBytes>>20)}
	case strings.Contains(msg, "unreachable"):
		return &Error{Kind: KindStack, Name: "RangeError",
			Message: "the runtime trapped (unreachable), most likely a stack overflow"}
	}
	return &Error{Kind: KindInternal, Name: "SandboxError", Message: "the sandbox stopped: " + firstLine(msg)}
}

// evalError turns an exception out of Eval ("Name: message\n    at …")
// into an Error.
func (rs *runState) evalError(err error, kind string) *Error {
	if e := rs.stopped(); e != nil {
		return e
	}
	text := err.Error()
	head, stack, _ := strings.Cut(text, "\n")
	name, message := "Error", head
	if n, m, ok := strings.Cut(head, ": "); ok && isIdent(n) {
		name, message = n, m
	}
	if name == "InternalError" && strings.Contains(message, "out of memory") {
		kind = KindMemory
	}
	if name == "RangeError" && strings.Contains(message, "stack") {
		kind = KindStack
	}
	return &Error{Kind: kind, Name: name, Message: message, Stack: stack}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func (rs *runState) log(level, msg string) string {
	if rs.logTruncated {
		return "full"
	}
	switch level {
	case "log", "info", "warn", "error", "debug":
	default:
		level = "log"
	}
	// Every entry costs its overhead too: for(;;) console.log() fills
	// the log as surely as long lines do.
	room := int64(rs.logCap) - rs.logBytes - LogEntryOverhead
	if int64(len(msg)) > room {
		msg = truncateUTF8(msg, int(max(room, 0)))
		rs.logTruncated = true
	}
	rs.logBytes += int64(len(msg)) + LogEntryOverhead
	rs.logs = append(rs.logs, Log{Level: level, Message: msg})
	if rs.logBytes >= int64(rs.logCap) || len(rs.logs) >= MaxLogEntries {
		rs.logTruncated = true
	}
	if rs.logTruncated {
		rs.logs = append(rs.logs, Log{Level: "warn", Message: fmt.Sprintf("[sandbox] the log reached its cap (%d bytes, %d entries); later output is dropped", rs.logCap, MaxLogEntries)})
		return "full"
	}
	return ""
}

func truncateUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

func (rs *runState) finish(kind, payload string) {
	if rs.done {
		return
	}
	rs.done = true
	if kind == "ok" {
		if len(payload) > rs.resCap {
			rs.outcome = Outcome{Err: &Error{Kind: KindThrown, Name: "RangeError",
				Message: fmt.Sprintf("the result is %d bytes, over the %d-byte cap", len(payload), rs.resCap)}}
			return
		}
		rs.outcome = Outcome{OK: true, Result: json.RawMessage(payload)}
		return
	}
	var e struct{ Name, Message, Stack, Path, Host string }
	if json.Unmarshal([]byte(payload), &e) != nil {
		e.Name, e.Message = "Error", "the tool failed"
	}
	kind = KindThrown
	if e.Name == "InternalError" && strings.Contains(e.Message, "out of memory") {
		kind = KindMemory
		e.Message = fmt.Sprintf("out of memory: the sandbox is capped at %d MiB", DefaultMemoryCapBytes>>20)
	}
	rs.outcome = Outcome{Err: &Error{Kind: kind, Name: e.Name, Message: e.Message, Stack: e.Stack, Path: e.Path, HostCall: e.Host}}
}

// call starts a host method: inline methods answer {v}|{e} at once, async
// ones answer {p: id} and finish on their own goroutine.
func (rs *runState) call(name, argsJSON string) string {
	site := rs.site
	rs.site = ""
	m, ok := rs.methods[name]
	if !ok || m.Fn == nil {
		return errJSON(fmt.Sprintf("%s is not granted to this tool (capabilities.host)", name))
	}
	var args []json.RawMessage
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		return errJSON(name + ": arguments are not JSON")
	}
	base := rs.ctx
	if site != "" {
		base = context.WithValue(base, siteKey{}, site)
	}
	if !m.Async {
		v, err := safeCall(base, m.Fn, args)
		return resultJSON(-1, v, err)
	}
	cctx, ccancel := context.WithCancelCause(base)
	rs.mu.Lock()
	rs.nextID++
	id := rs.nextID
	rs.inflight++
	if rs.cancels == nil {
		rs.cancels = map[int]context.CancelCauseFunc{}
	}
	rs.cancels[id] = ccancel
	rs.mu.Unlock()
	go func() {
		hc := &hostCall{rs: rs, id: id}
		v, err := safeCall(context.WithValue(cctx, roomKey{}, hc), m.Fn, args)
		ccancel(nil)
		if err == nil {
			err = rs.waitRoom(len(v) + len(hc.text))
		}
		r := hostResult{id: id}
		switch {
		case err == nil && hc.text != nil && len(v) > 1 && v[0] == '{' && json.Valid(v):
			r.v, r.textName, r.text = v, hc.textName, hc.text
		case err == nil && hc.text != nil: // a text needs an object to go into
			r.frame = resultJSON(id, nil, errors.New(m.Name+": host error"))
		case err == nil && len(v) > 0 && json.Valid(v):
			r.v = v
		default:
			r.frame = resultJSON(id, v, err)
		}
		v, hc.text = nil, nil
		rs.mu.Lock()
		delete(rs.cancels, id)
		if rs.ctx.Err() != nil {
			r = hostResult{id: id, frame: resultJSON(id, nil, rs.ctx.Err())}
		}
		rs.inflight--
		rs.completed = append(rs.completed, r)
		rs.queued += r.size()
		rs.mu.Unlock()
		select {
		case rs.wake <- struct{}{}:
		default:
		}
	}()
	return `{"p":` + strconv.Itoa(id) + `}`
}

type roomKey struct{}

// maxDeliverBytes bounds the results one __sb.deliver() takes (or one
// result, however large): small results are settled together, big ones
// one by one, each after the page's reactions to the last one have run.
const maxDeliverBytes = 4 << 20

// hostCall is an async host call as its method sees it (roomKey).
type hostCall struct {
	rs       *runState
	id       int // CallID
	textName string
	text     []byte
}

// hostResult is a finished async host call waiting for the page: its
// value (valid JSON), handed over as {"id":N,"v":value} without a copy,
// plus, when the method set one (SetText), a text the page gets as the
// value's property textName; or, for an error or a null, the whole
// frame {"id":N,"e":…}.
type hostResult struct {
	id       int
	v        json.RawMessage
	textName string
	text     []byte
	frame    string
}

func (r hostResult) size() int { return len(r.v) + len(r.text) + len(r.frame) }

// waitRoom waits until the results the page has not taken yet leave room
// for n more bytes (at most MaxQueuedBytes are held, or one result), or
// the run ends.
func (rs *runState) waitRoom(n int) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for rs.queued > 0 && rs.queued+n > MaxQueuedBytes {
		if err := rs.ctx.Err(); err != nil {
			return err
		}
		rs.mu.Unlock()
		select {
		case <-rs.taken:
		case <-rs.ctx.Done():
		}
		rs.mu.Lock()
	}
	return rs.ctx.Err()
}

// WaitForRoom lets an async host method wait, before it returns a result
// of n bytes, until the page has taken enough of the earlier ones: a
// method holding a share of a budget (a fetch's response bytes) keeps it
// until its result can be queued. Outside a run it returns at once.
func WaitForRoom(ctx context.Context, n int) error {
	if hc, ok := ctx.Value(roomKey{}).(*hostCall); ok {
		return hc.rs.waitRoom(n)
	}
	return ctx.Err()
}

// CallID is the number of an async host call in the order the page made
// its async calls (1, 2, …; assigned on the page's thread, so parallel
// calls keep the page's order whichever goroutine runs first), or 0
// outside one.
func CallID(ctx context.Context) int {
	if hc, ok := ctx.Value(roomKey{}).(*hostCall); ok {
		return hc.id
	}
	return 0
}

// SetText makes text the property name of the object an async host
// method returns, handed to the page as a JavaScript string made straight
// from the bytes: no JSON string is built in Go, and none is parsed in the
// sandbox (a 16 MiB response body took 34 MiB in Go, the body and its
// JSON, and 52 MiB of the sandbox's memory; it takes 16 and 32 this way). The method
// keeps no reference to text afterwards. It returns false, and sets
// nothing, when ctx is not an async host call or text is not valid UTF-8
// free of NUL bytes (JS_NewString would cut it at the first NUL and read
// bad bytes its own way): the method then puts the text into its JSON.
func SetText(ctx context.Context, name string, text []byte) bool {
	hc, ok := ctx.Value(roomKey{}).(*hostCall)
	if !ok || name == "" || bytes.IndexByte(text, 0) >= 0 || !utf8.Valid(text) {
		return false
	}
	if text == nil {
		text = []byte{}
	}
	hc.textName, hc.text = name, text
	return true
}

func safeCall(ctx context.Context, fn HostFunc, args []json.RawMessage) (v json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, errors.New("host method failed")
		}
	}()
	return fn(ctx, args)
}

func errJSON(msg string) string {
	b, _ := json.Marshal(map[string]string{"e": msg})
	return string(b)
}

func resultJSON(id int, v json.RawMessage, err error) string {
	if err == nil && id >= 0 && len(v) > 0 && json.Valid(v) {
		// One copy of a (possibly 16 MiB) value, not three.
		var b strings.Builder
		b.Grow(len(v) + 24)
		b.WriteString(`{"id":`)
		b.WriteString(strconv.Itoa(id))
		b.WriteString(`,"v":`)
		b.Write(v)
		b.WriteString("}")
		return b.String()
	}
	var b []byte
	switch {
	case err != nil && id >= 0:
		b, _ = json.Marshal(struct {
			ID int    `json:"id"`
			E  string `json:"e"`
		}{id, err.Error()})
	case err != nil:
		b, _ = json.Marshal(struct {
			E string `json:"e"`
		}{err.Error()})
	default:
		if len(v) == 0 || !json.Valid(v) {
			v = json.RawMessage("null")
		}
		if id >= 0 {
			b, _ = json.Marshal(struct {
				ID int             `json:"id"`
				V  json.RawMessage `json:"v"`
			}{id, v})
		} else {
			b, _ = json.Marshal(struct {
				V json.RawMessage `json:"v"`
			}{v})
		}
	}
	return string(b)
}

type timer struct {
	id  int
	due time.Time
	seq int
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].due.Equal(h[j].due) {
		return h[i].seq < h[j].seq
	}
	return h[i].due.Before(h[j].due)
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(*timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}
func (h *timerHeap) remove(id int) {
	for i, t := range *h {
		if t.id == id {
			heap.Remove(h, i)
			return
		}
	}
}
