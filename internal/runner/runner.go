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
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// Defaults of a run.
const (
	DefaultTimeout = 30 * time.Second
	MaxTimeout     = 10 * time.Minute
)

// Config configures a Runner.
type Config struct {
	// CacheDir keeps the compiled QuickJS module across processes
	// (default: <user cache dir>/plugin-lsp/qjs; "-" disables it).
	CacheDir string
	// Env reads the environment for dev secrets bound to a plugin,
	// PLUGIN_SECRET_<PLUGIN>__<name> (capability.DevSecrets; default
	// os.Getenv).
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
// compiled is a record.Record with OK false.
func (r *Runner) Run(ctx context.Context, req Request) (*record.Record, error) {
	start := time.Now()
	clock := startPhases(req.Phases, start)
	plan, err := validate(req)
	if err != nil {
		return nil, err
	}
	p := req.Plugin
	progress := serialProgress(req.Progress)
	rec := newRecord(plan.claim, plan.timeout)
	clock.lap("validate")
	finish := func() (*record.Record, error) {
		CapRecord(rec)
		rec.DurationMs = ms(time.Since(start))
		return rec, nil
	}
	fail := func(e *record.RunError) (*record.Record, error) {
		rec.Error = e
		return finish()
	}

	if e := refuseDuplicateKeys(p); e != nil {
		return fail(e)
	}
	clock.lap("manifest")
	// The input, checked against inputJsonSchema before any sandbox starts
	// (a bare page has none). Its error lists every violation: not capped.
	if plan.tool != nil {
		if e := checkInput(p, plan.tool, req.Tool, req.Input); e != nil {
			rec.Error = e
			rec.DurationMs = ms(time.Since(start))
			return rec, nil
		}
	}
	clock.lap("input")
	set, e := fixturesFor(p, req)
	if e != nil {
		return fail(e)
	}
	clock.lap("fixtures")
	prog, rel, e := r.compilePage(p, plan, progress)
	if e != nil {
		return fail(e)
	}
	clock.lap("compile")
	b, methods := r.grant(req, rel, set, progress)
	rec.Usage.FetchCap = b.MaxFetches()
	clock.lap("grant")

	if !r.acquireSlot(ctx) {
		return fail(runErr("CanceledError", "the run was cancelled before it started", prog.Page, 0, 0))
	}
	defer r.releaseSlot()
	progress("running " + rec.Claim)
	clock.lap("slot")
	out := r.engine.Run(ctx, sandbox.Job{
		Name:    ScriptName,
		Code:    prog.Code,
		Input:   req.Input,
		Methods: methods,
		Timeout: plan.timeout,
	})
	clock.sandbox(out)

	buildRecord(rec, out, prog, p, b)
	rec, _ = finish()
	if out.OK {
		progress("returned")
	} else {
		progress("failed: " + rec.Error.Message)
	}
	clock.lap("record")
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

// unknownTool is ErrUnknownTool with the explanation as its whole text
// (a native tool is not "unknown": it is in the other lane).
type unknownTool string

func (e unknownTool) Error() string        { return string(e) }
func (e unknownTool) Is(target error) bool { return target == ErrUnknownTool }

// compile compiles a page, reusing the last result while none of its
// input files changed.
func (r *Runner) compile(p *checker.Plugin, rel string) (*Program, error) {
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

// fetchResultJSON is {status, headers, body, url} as JSON, written into
// one buffer sized for the body: a 16 MiB response is copied once here,
// not three times (string conversion, encoder growth, final copy). A nil
// body is left out (the sandbox hands it over as a text: SetText).
func fetchResultJSON(status int, headers map[string]string, url string, body []byte) (json.RawMessage, error) {
	h, err := json.Marshal(headers) // sorted keys
	if err != nil {
		return nil, err
	}
	u, err := json.Marshal(url)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(body)/8+len(h)+len(u)+64)
	out = append(out, `{"status":`...)
	out = strconv.AppendInt(out, int64(status), 10)
	out = append(out, `,"headers":`...)
	out = append(out, h...)
	if body != nil {
		out = append(out, `,"body":`...)
		out = appendJSONString(out, body)
	}
	out = append(out, `,"url":`...)
	out = append(out, u...)
	return append(out, '}'), nil
}

// appendJSONString appends b as a JSON string, as encoding/json writes a
// string: invalid UTF-8 becomes U+FFFD, control characters and the line
// separators U+2028/U+2029 are escaped (HTML characters are not: the
// value goes to JSON.parse, not into a page).
func appendJSONString(dst, b []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, b[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, b[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, b[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, b[start:]...)
	return append(dst, '"')
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
		// Seq: parallel fetches are recorded in the page's call order.
		req := broker.Request{Method: strings.ToUpper(init.Method), URL: url, Header: http.Header{}, Seq: sandbox.CallID(ctx)}
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
		defer resp.Release() // the body's share of the run's in-flight budget
		if err := ctx.Err(); err != nil {
			return nil, err // the run ended: no copy of a body nobody takes
		}
		headers := map[string]string{}
		for k, vs := range resp.Header {
			headers[strings.ToLower(k)] = strings.Join(vs, ", ")
		}
		// The body goes to the page as it is (a string made from its
		// bytes); only a body that is not NUL-free UTF-8 is encoded into
		// the JSON, where bad bytes become U+FFFD.
		body, n := resp.Body, len(resp.Body)
		if sandbox.SetText(ctx, "body", body) {
			body = nil
		}
		out, err := fetchResultJSON(resp.Status, headers, resp.URL, body)
		resp.Body, body = nil, nil // the sandbox's reference is all that is kept from here on
		if err != nil {
			return nil, err
		}
		// Keep the budget until the page can take the response.
		if err := sandbox.WaitForRoom(ctx, len(out)+n); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// loadFixtures reads --fixtures from the disk, or the plugin's own
// fixtures.json through the plugin's FS (an editor's unsaved buffer wins).
func loadFixtures(p *checker.Plugin, override string) (*fixtureSet, error) {
	if override != "" {
		f, err := broker.LoadFixtures(override)
		if err != nil {
			return nil, err
		}
		return newFixtureSet(f), nil
	}
	// Through the plugin's one read path: read once per loaded Plugin
	// (the checker's snapshot; a changed file is a new Plugin).
	file, err := p.ReadFile(checker.FixturesName)
	if errors.Is(err, fs.ErrNotExist) {
		return newFixtureSet(&broker.Fixtures{}), nil
	}
	if err != nil {
		return nil, err
	}
	data := file.Text
	if len(data) > broker.MaxFixturesBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", checker.FixturesName, len(data), broker.MaxFixturesBytes)
	}
	set, err := parseFixtures(data) // parsed once per content
	if err != nil {
		return nil, fmt.Errorf("%s:%w", checker.FixturesName, err)
	}
	return set, nil
}
