package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/capability"
	"github.com/plugin-lsp/plugin-lsp/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/runner/sandbox"
)

// Defaults of a run (DESIGN.md §2).
const (
	DefaultTimeout = 30 * time.Second
	MaxTimeout     = 10 * time.Minute
)

// Config configures a Runner.
type Config struct {
	// CacheDir keeps the compiled QuickJS module across processes
	// (default: <user cache dir>/plugin-lsp/qjs; "-" disables it).
	CacheDir string
	// Env looks up PLUGIN_SECRET_<NAME> dev secrets (default os.Getenv).
	Env func(string) string
	// Network configures the "real" provider (tests: a loopback dialer and
	// root CA). Zero: the public network through the broker.
	Network broker.NetworkOptions
	// Spare is how many sandboxes are prepared ahead (default
	// MaxConcurrent, so that a burst of concurrent runs finds one ready;
	// negative: none).
	Spare int
	// MaxConcurrent bounds the runs in flight (default 4): each may hold
	// up to 128 MiB of sandbox memory. Further runs wait their turn (their
	// context still applies).
	MaxConcurrent int
}

// Runner runs function tools. It is safe for concurrent use: every Run
// gets its own sandbox, broker and collections store.
type Runner struct {
	cfg    Config
	engine *sandbox.Engine
	net    broker.Provider
	slots  chan struct{}

	mu    sync.Mutex
	progs map[string]*Program // page key → compiled program
}

var _ ToolRunner = (*Runner)(nil)

// New prepares the sandbox engine (the first QuickJS runtime of the
// process, with deadlines enabled).
func New(cfg Config) (*Runner, error) {
	if cfg.Env == nil {
		cfg.Env = os.Getenv
	}
	cache := cfg.CacheDir
	switch cache {
	case "-":
		cache = ""
	case "":
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "plugin-lsp", "qjs")
		}
	}
	if cache != "" {
		if err := os.MkdirAll(cache, 0o700); err != nil {
			cache = ""
		}
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 4
	}
	if cfg.Spare == 0 {
		cfg.Spare = cfg.MaxConcurrent
	}
	eng, err := sandbox.NewEngine(sandbox.Options{CacheDir: cache, Spare: cfg.Spare})
	if err != nil {
		return nil, err
	}
	return &Runner{cfg: cfg, engine: eng, net: broker.NewNetworkProvider(cfg.Network),
		slots: make(chan struct{}, cfg.MaxConcurrent), progs: map[string]*Program{}}, nil
}

// Close releases the prepared sandboxes.
func (r *Runner) Close() { r.engine.Close() }

// ErrUnknownTool is returned by Run for a tool the manifest does not declare.
var ErrUnknownTool = errors.New("unknown tool")

// Run runs one tool. The error is for misuse only (no plugin, unknown
// tool, bad providers value); a tool that throws, times out or cannot be
// compiled is a Record with OK false.
func (r *Runner) Run(ctx context.Context, req Request) (*Record, error) {
	start := time.Now()
	p := req.Plugin
	if p == nil || p.Manifest == nil {
		return nil, errors.New("runner: no plugin")
	}
	var pageStr string
	claim := "fn." + req.Tool
	if req.Tool == "" && req.Page != "" {
		pageStr, claim = req.Page, req.Page
	} else {
		tool := findTool(p.Manifest, req.Tool)
		if tool == nil {
			return nil, fmt.Errorf("%w %q: the manifest declares %s", ErrUnknownTool, req.Tool, toolList(p.Manifest))
		}
		pageStr, _ = analysis.Str(tool.Page)
	}
	switch req.Providers {
	case "", "fake", "real":
	default:
		return nil, fmt.Errorf("runner: providers must be fake or real, not %q", req.Providers)
	}
	if len(req.Input) > 0 && !json.Valid(req.Input) {
		return nil, errors.New("runner: the input is not JSON")
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if timeout > MaxTimeout {
		timeout = MaxTimeout
	}
	progress := func(string) {}
	if req.Progress != nil {
		// fetches report from their own goroutines: one message at a time
		var mu sync.Mutex
		progress = func(m string) {
			mu.Lock()
			defer mu.Unlock()
			req.Progress(m)
		}
	}
	rec := &Record{
		Claim:   claim + ":" + callID(),
		Result:  json.RawMessage("null"),
		Logs:    []LogEntry{},
		Fetches: []FetchEntry{},
		Usage: Usage{
			MemoryCapBytes: sandbox.DefaultMemoryCapBytes,
			FetchCap:       broker.DefaultMaxFetches,
			LogCapBytes:    sandbox.DefaultLogCapBytes,
			TimeoutMs:      timeout.Milliseconds(),
		},
	}
	fail := func(name, msg, file string, line, col int) (*Record, error) {
		rec.Error = &RunError{Name: name, Message: msg, File: file, Line: line, Column: col}
		rec.DurationMs = ms(time.Since(start))
		return rec, nil
	}

	// Fixtures (fake provider, secrets, collections).
	fx, err := loadFixtures(p, req.FixturesPath)
	if err != nil {
		return fail("FixturesError", err.Error(), analysis.FixturesName, 0, 0)
	}

	// Compile.
	rel, ok := resolvePage(p, pageStr)
	if !ok {
		return fail("CompileError", fmt.Sprintf("the page %q of %s does not exist (tried %s)", pageStr, claim, rel), rel, 0, 0)
	}
	progress("compiling " + rel)
	prog, err := r.compile(p, rel)
	if err != nil {
		var ce *CompileError
		if errors.As(err, &ce) {
			return fail("CompileError", ce.Message, ce.File, ce.Line, ce.Column)
		}
		return fail("CompileError", err.Error(), rel, 0, 0)
	}

	// Broker and host methods.
	var provider broker.Provider = broker.NewFixtureProvider(fx)
	if req.Providers == "real" {
		provider = r.net
	}
	// The reach: the plugin's, from the one capability model (a malformed
	// entry grants nothing).
	reach := capability.FromManifest(p.Manifest)
	if req.Tool == "" {
		reach = capability.ReachOfPage(p, rel) // a bare page: the minimal grant
	}
	b := broker.New(broker.Config{
		Reach:    reach,
		Secrets:  fx.SecretStore(r.cfg.Env),
		Provider: provider,
	})
	rec.Usage.FetchCap = b.MaxFetches()
	store := newCollections(fx.Collections)
	methods := hostMethods(reach, b, store, progress)

	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return fail("CanceledError", "the run was cancelled before it started", prog.Page, 0, 0)
	}
	defer func() { <-r.slots }()
	progress("running " + rec.Claim)
	out := r.engine.Run(ctx, sandbox.Job{
		Name:    ScriptName,
		Code:    prog.Code,
		Input:   req.Input,
		Methods: methods,
		Timeout: timeout,
	})

	// The record: everything the tool produced passes through Redact.
	rec.OK = out.OK
	if out.OK {
		rec.Result = json.RawMessage(b.Redact(string(out.Result)))
		if !json.Valid(rec.Result) {
			rec.Result = json.RawMessage(strconv.Quote(string(rec.Result)))
		}
	}
	if out.Err != nil {
		stack, file, line, col := prog.MapStack(out.Err.Stack)
		rec.Error = &RunError{
			Name:    b.Redact(out.Err.Name),
			Message: b.Redact(out.Err.Message),
			Stack:   b.Redact(strings.TrimRight(stack, "\n")),
			File:    file, Line: line, Column: col,
		}
		if rec.Error.File == "" && out.Err.Kind != sandbox.KindThrown {
			rec.Error.File = prog.Page
		}
	}
	for _, l := range out.Logs {
		rec.Logs = append(rec.Logs, LogEntry{Level: l.Level, Message: b.Redact(l.Message)})
	}
	for _, e := range b.Audit() {
		rec.Fetches = append(rec.Fetches, FetchEntry(e))
	}
	st := b.Stats()
	rec.Usage.FetchCount = st.Calls
	rec.Usage.FetchBytes = st.Bytes
	rec.Usage.LogBytes = out.LogBytes
	rec.Usage.MemoryPeakBytes = out.MemoryPeakBytes
	rec.DurationMs = ms(time.Since(start))
	if out.OK {
		progress("returned")
	} else {
		progress("failed: " + rec.Error.Message)
	}
	return rec, nil
}

func ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

func callID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func findTool(m *analysis.Manifest, name string) *analysis.Tool {
	for _, t := range m.Tools {
		if s, ok := analysis.Str(t.Name); ok && s == name {
			return t
		}
	}
	return nil
}

func toolList(m *analysis.Manifest) string {
	var names []string
	for _, t := range m.Tools {
		if s, ok := analysis.Str(t.Name); ok {
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		return "no function tools"
	}
	return strings.Join(names, ", ")
}

// compile compiles a page, reusing the last result while none of its
// input files changed.
func (r *Runner) compile(p *analysis.Plugin, rel string) (*Program, error) {
	key := p.Dir + "\x00" + rel
	r.mu.Lock()
	prev := r.progs[key]
	r.mu.Unlock()
	if prev != nil && prev.fresh(p) {
		return prev, nil
	}
	prog, err := Compile(p, rel)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.progs[key] = prog
	r.mu.Unlock()
	return prog, nil
}

// hostMethods grants exactly the host methods of the reach (the minimal
// grant: none). Each catalogue method has its implementation here.
func hostMethods(reach *capability.Reach, b *broker.Broker, store *collections, progress func(string)) []sandbox.Method {
	var out []sandbox.Method
	for _, name := range reach.Host {
		m, _ := capability.LookupHostMethod(name)
		switch m.Object() {
		case "http":
			if m.Method() == "fetch" {
				out = append(out, sandbox.Method{Name: name, Async: m.Async, Fn: fetchMethod(b, progress)})
			}
		case "collections":
			out = append(out, sandbox.Method{Name: name, Async: m.Async, Fn: store.method(m.Method())})
		}
	}
	return out
}

type fetchInit struct {
	Method  string            `json:"method"`
	Headers map[string]string `json:"headers"`
	Body    *string           `json:"body"`
}

type fetchResult struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	URL     string            `json:"url"`
}

func fetchMethod(b *broker.Broker, progress func(string)) sandbox.HostFunc {
	return func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		var url string
		if len(args) == 0 || json.Unmarshal(args[0], &url) != nil {
			return nil, errors.New("http.fetch: the URL must be a string")
		}
		var init fetchInit
		if len(args) > 1 && string(args[1]) != "null" {
			if err := json.Unmarshal(args[1], &init); err != nil {
				return nil, errors.New("http.fetch: init must be { method?, headers?, body? }")
			}
		}
		req := broker.Request{Method: strings.ToUpper(init.Method), URL: url, Header: http.Header{}}
		for k, v := range init.Headers {
			req.Header.Add(k, v)
		}
		if init.Body != nil {
			req.Body = []byte(*init.Body)
		}
		progress("fetch " + url)
		resp, err := b.Fetch(ctx, req)
		if err != nil {
			return nil, err
		}
		res := fetchResult{Status: resp.Status, Headers: map[string]string{}, Body: string(resp.Body), URL: resp.URL}
		keys := make([]string, 0, len(resp.Header))
		for k := range resp.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			res.Headers[strings.ToLower(k)] = strings.Join(resp.Header[k], ", ")
		}
		return json.Marshal(res)
	}
}

// resolvePage is analysis.Plugin.ResolvePage without the Plugin's file
// cache (safe when the Plugin is shared by concurrent runs).
func resolvePage(p *analysis.Plugin, page string) (string, bool) {
	c, err := analysis.Clean(page)
	if err != nil {
		return page, false
	}
	if filepath.Ext(c) != "" {
		return c, existsInside(p, c)
	}
	for _, ext := range analysis.PageExtensions {
		if existsInside(p, c+ext) {
			return c + ext, true
		}
	}
	return c + analysis.PageExtensions[0], false
}

// loadFixtures reads --fixtures from the disk, or the plugin's own
// fixtures.json through the plugin's FS (an editor's unsaved buffer wins).
func loadFixtures(p *analysis.Plugin, override string) (*broker.Fixtures, error) {
	if override != "" {
		return broker.LoadFixtures(override)
	}
	data, err := p.FS.ReadFile(p.Abs(analysis.FixturesName))
	if errors.Is(err, fs.ErrNotExist) {
		return &broker.Fixtures{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", analysis.FixturesName, err)
	}
	if len(data) > broker.MaxFixturesBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", analysis.FixturesName, len(data), broker.MaxFixturesBytes)
	}
	f, err := broker.ParseFixtures(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", analysis.FixturesName, err)
	}
	return f, nil
}
