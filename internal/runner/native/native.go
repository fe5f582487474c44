// Package native runs one native tool (the full-trust lane) in a Node.js
// child process through the harness this binary ships (harness.mjs). It
// is a development harness on Node's own hooks, not a sandbox: the module
// runs with the authority of the user who runs it. What the harness adds:
// only the declared tool is runnable, the input is validated first, ctx
// has exactly the members the tool's requires grant, every outgoing
// connection is recorded (and refused under fake providers, or when
// requires does not grant it), the deadline ends the whole process group,
// and secrets never reach the record.
package native

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

//go:embed harness.mjs
var harnessJS []byte

// MinNodeMajor is the oldest Node.js major version the harness supports.
const MinNodeMajor = 20

// Caps of a native run.
const (
	// DefaultMemoryCapBytes is the V8 old-space cap (--max-old-space-size).
	DefaultMemoryCapBytes = 128 << 20
	// LogCapBytes bounds the logs as for function tools.
	LogCapBytes = 64 << 10
	// MaxConnections bounds connections[] (the rest are counted).
	MaxConnections = 256
	// MaxNotifications bounds notifications[].
	MaxNotifications = 64
	// killGrace is how long the harness has, after the deadline aborted
	// ctx.signal, before the process group is killed.
	killGrace = 100 * time.Millisecond
	// LoadAllowance is what loading may take beyond the tool's timeout:
	// Node's start alone took seconds on a loaded 2-core machine.
	LoadAllowance = 10 * time.Second
)

// Request is one native run.
type Request struct {
	Plugin *checker.Plugin
	Tool   string // the tool's name as declared in nativeTools[].names
	// Input is the tool's argument; nil: inputJsonSchema.examples[0] of
	// the module's definition, else {}.
	Input json.RawMessage
	// Providers is "fake" (default: every connection refused) or "real"
	// (what requires grants goes through).
	Providers string
	// Timeout is the tool's deadline (default runner.DefaultTimeout),
	// counted from when the module has loaded and described the tool.
	Timeout time.Duration
	// LoadTimeout bounds loading: Node's start and the module's import
	// (default Timeout + LoadAllowance).
	LoadTimeout time.Duration
	// Node is the node executable (default "node" on PATH).
	Node string
	// CacheDir is where the harness is written (default <user cache
	// dir>/plugin-lsp/native).
	CacheDir string
	// Env reads the environment for dev secrets (default os.Getenv).
	Env func(string) string
	// Fixtures replaces <plugin>/fixtures.json (a test case's merge);
	// FixturesPath names another file.
	Fixtures     *fixtures.File
	FixturesPath string
	// Storage seeds ctx.storage (a test case's seed).
	Storage map[string]json.RawMessage
	// MemoryCapBytes is the V8 heap cap (default DefaultMemoryCapBytes).
	MemoryCapBytes int64
	// Progress, when set, receives short human messages.
	Progress func(string)
}

// NodeError is a missing or too old Node.js: the run cannot start.
type NodeError struct {
	Path    string
	Version string // what `node --version` printed ("" when it did not run)
	Err     error
}

func (e *NodeError) Error() string {
	if e.Version == "" {
		return fmt.Sprintf("native tools run in Node.js >= %d: %s could not be run (%v); install Node.js %d or later or pass --node PATH", MinNodeMajor, e.Path, e.Err, MinNodeMajor)
	}
	return fmt.Sprintf("native tools run in Node.js >= %d: %s is %s; install Node.js %d or later or pass --node PATH", MinNodeMajor, e.Path, e.Version, MinNodeMajor)
}

// ErrUnknownTool: the tool is not a declared native tool.
var ErrUnknownTool = runner.ErrUnknownTool

type unknownTool string

func (e unknownTool) Error() string        { return string(e) }
func (e unknownTool) Is(target error) bool { return target == ErrUnknownTool }

// IsNativeTool reports whether name is declared in the manifest's
// nativeTools, and in which module (the manifest's string).
func IsNativeTool(m *checker.Manifest, name string) (module string, ok bool) {
	if m == nil {
		return "", false
	}
	for _, nt := range m.NativeTools {
		mod, okm := checker.Str(nt.Module)
		for _, n := range nt.Names {
			if s, oks := checker.Str(n); oks && s == name && okm {
				module, ok = mod, true // the last declaration wins, as at load
			}
		}
	}
	return module, ok
}

// NodeVersion runs `node --version` and checks it: it returns the
// version text, or a *NodeError.
func NodeVersion(ctx context.Context, node string) (string, int, int, error) {
	if node == "" {
		node = "node"
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--version")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", 0, 0, &NodeError{Path: node, Err: err}
	}
	v := strings.TrimSpace(checker.Clip(out.String(), 64))
	m := regexp.MustCompile(`^v(\d+)\.(\d+)\.\d+`).FindStringSubmatch(v)
	if m == nil {
		return v, 0, 0, &NodeError{Path: node, Version: strconv.Quote(v)}
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major < MinNodeMajor {
		return v, major, minor, &NodeError{Path: node, Version: v}
	}
	return v, major, minor, nil
}

// harnessPath writes the harness into dir, named by its content hash
// (written once, atomically), and returns its path.
func harnessPath(dir string) (string, error) {
	if dir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			d = os.TempDir()
		}
		dir = filepath.Join(d, "plugin-lsp", "native")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	sum := sha256.Sum256(harnessJS)
	path := filepath.Join(dir, "harness-"+hex.EncodeToString(sum[:8])+".mjs")
	if b, err := os.ReadFile(path); err == nil && bytes.Equal(b, harnessJS) {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, ".harness-*")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(harnessJS); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, nil
}

// event is one line the harness writes on fd 3.
type event struct {
	T        string          `json:"t"`
	Level    string          `json:"level"`
	Message  string          `json:"message"`
	Name     string          `json:"name"`
	Stack    string          `json:"stack"`
	Path     string          `json:"path"`
	Value    json.RawMessage `json:"value"`
	Schema   *string         `json:"schema"`
	Requires []string        `json:"requires"`
	Required bool            `json:"required"`
	Protocol string          `json:"protocol"`
	Host     string          `json:"host"`
	Port     int             `json:"port"`
	Refused  string          `json:"refused"`
}

// Run runs one native tool and returns its record. The error is for
// misuse (no plugin, unknown tool, bad providers) and for a missing or
// old Node (*NodeError); everything the tool does, including failing, is
// a Record with OK false.
func Run(ctx context.Context, req Request) (*record.Record, error) {
	start := time.Now()
	p := req.Plugin
	if p == nil || p.Manifest == nil {
		return nil, errors.New("native: no plugin")
	}
	modStr, ok := IsNativeTool(p.Manifest, req.Tool)
	if !ok {
		return nil, unknownTool(fmt.Sprintf("no native tool %q in this plugin's nativeTools", req.Tool))
	}
	switch req.Providers {
	case "", "fake":
		req.Providers = "fake"
	case "real":
	default:
		return nil, fmt.Errorf("native: providers must be fake or real, not %q", req.Providers)
	}
	if len(req.Input) > 0 && !json.Valid(req.Input) {
		return nil, errors.New("native: the input is not JSON")
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = runner.DefaultTimeout
	}
	timeout = min(timeout, runner.MaxTimeout)
	loadTimeout := req.LoadTimeout
	if loadTimeout <= 0 {
		loadTimeout = timeout + LoadAllowance
	}
	memCap := req.MemoryCapBytes
	if memCap <= 0 {
		memCap = DefaultMemoryCapBytes
	}
	progress := func(string) {}
	if req.Progress != nil {
		progress = req.Progress
	}
	node := req.Node
	if node == "" {
		node = "node"
	}
	_, major, minor, err := NodeVersion(ctx, node)
	if err != nil {
		return nil, err
	}
	env := req.Env
	if env == nil {
		env = os.Getenv
	}

	rec := &record.Record{
		Claim:       req.Tool + ":" + callID(),
		Result:      json.RawMessage("null"),
		Logs:        []record.LogEntry{},
		Fetches:     []record.FetchEntry{},
		Lane:        "native",
		Connections: []record.Connection{},
		Usage: record.Usage{
			MemoryCapBytes: memCap,
			LogCapBytes:    LogCapBytes,
			TimeoutMs:      timeout.Milliseconds(),
		},
	}
	fail := func(name, msg, file string, line, col int) (*record.Record, error) {
		rec.OK = false
		rec.Error = &record.RunError{Name: name, Message: msg, File: file, Line: line, Column: col}
		runner.CapRecord(rec)
		rec.DurationMs = ms(time.Since(start))
		return rec, nil
	}

	// The module: inside the plugin directory, read through the one reader.
	rel := filepath.ToSlash(filepath.Clean(strings.TrimPrefix(modStr, "./")))
	mf, err := p.ReadFile(rel)
	if err != nil {
		return fail("ModuleError", fmt.Sprintf("cannot read the module %s of %s: %v", modStr, req.Tool, err), checker.ManifestName, 0, 0)
	}
	if m := jsmodule.ReadExports(mf.Text); m.Kind == jsmodule.CommonJS {
		return fail("ModuleError", fmt.Sprintf("%s is CommonJS (module.exports, require): a native module is an ES module (export const tools = {…})", rel), rel, 1, 1)
	}
	abs := p.Abs(rel)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	dir := p.Dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}

	// Fixtures: secrets, collections.
	fx := req.Fixtures
	if fx == nil {
		path := req.FixturesPath
		if path == "" {
			path = p.Abs(checker.FixturesName)
		}
		if data, err := readFixtures(p, req.FixturesPath, path); err == nil {
			if fx, err = fixtures.Parse(data); err != nil {
				return fail("FixturesError", err.Error(), checker.FixturesName, 0, 0)
			}
		} else if !os.IsNotExist(err) && !errors.Is(err, os.ErrNotExist) {
			return fail("FixturesError", err.Error(), checker.FixturesName, 0, 0)
		}
	}
	if fx == nil {
		fx = &fixtures.File{}
	}
	devs := capability.DevSecrets{Plugin: capability.PluginName(p.Manifest), Fixtures: fx.Secrets, Env: env}
	var secretNames []string
	for _, c := range capability.FromManifest(p.Manifest).Credentials {
		secretNames = append(secretNames, c.Name)
	}
	var resolved []capability.SecretResolution
	var scrubs []scrub.Secret
	for _, n := range secretNames {
		r := devs.Resolve(n)
		resolved = append(resolved, r)
		if r.Found() {
			scrubs = append(scrubs, scrub.Secret{Name: n, Value: r.Value()})
		}
	}
	sc := scrub.New(scrubs...)
	redact := func(s string) string { return sc.Text(s) }

	harness, err := harnessPath(req.CacheDir)
	if err != nil {
		return fail("HarnessError", "cannot write the harness: "+err.Error(), "", 0, 0)
	}
	tmp, err := os.MkdirTemp("", "plugin-lsp-native-")
	if err != nil {
		return fail("HarnessError", err.Error(), "", 0, 0)
	}
	defer os.RemoveAll(tmp)

	args := []string{
		"--enable-source-maps",
		"--no-warnings",
		"--max-old-space-size=" + strconv.FormatInt(memCap>>20, 10),
		"--disable-proto=delete",
	}
	args = append(args, permissionFlags(major, minor, dir, harness, tmp)...)
	if major < 22 && (major > 20 || minor >= 10) {
		args = append(args, "--experimental-websocket")
	}
	args = append(args, harness)

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.Command(node, args...)
	cmd.Dir = dir
	cmd.Env = childEnv(tmp)
	setGroup(cmd)
	evR, evW, err := os.Pipe()
	if err != nil {
		return fail("HarnessError", err.Error(), "", 0, 0)
	}
	cmd.ExtraFiles = []*os.File{evW}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		evR.Close()
		evW.Close()
		return fail("HarnessError", err.Error(), "", 0, 0)
	}
	out := &capBuf{max: LogCapBytes}
	errOut := &capBuf{max: LogCapBytes}
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.WaitDelay = time.Second
	progress("starting node for " + req.Tool)
	if err := cmd.Start(); err != nil {
		evR.Close()
		evW.Close()
		return nil, &NodeError{Path: node, Err: err}
	}
	evW.Close()
	killed := false
	var killOnce sync.Once
	kill := func() { killOnce.Do(func() { killGroup(cmd) }) }
	defer kill()

	deadline := start.Add(timeout)
	cfg := map[string]any{
		"module":    (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(),
		"name":      req.Tool,
		"providers": req.Providers,
		"deadline":  deadline.UnixMilli(),
		"callId":    strings.TrimPrefix(rec.Claim, req.Tool+":"),
		"claim":     rec.Claim,
	}
	cfgInput := req.Input
	if len(cfgInput) == 0 {
		cfgInput = json.RawMessage("null")
	}
	cfg["input"] = cfgInput
	sendLine := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = stdin.Write(append(b, '\n'))
	}

	events := make(chan event, 64)
	go func() {
		defer close(events)
		br := bufio.NewReaderSize(evR, 64<<10)
		for {
			line, err := readLine(br, 17<<20)
			if len(line) > 0 {
				var ev event
				if json.Unmarshal(line, &ev) == nil {
					events <- ev
				}
			}
			if err != nil {
				return
			}
		}
	}()
	defer evR.Close()

	// The deadline is the tool's: it starts when the module has loaded
	// and described the tool (Node's own start, seconds on a loaded
	// machine, is not the tool's time). Loading has a deadline of its own
	// (loadTimeout), so a module that hangs at import ends too.
	timer := time.NewTimer(loadTimeout)
	defer timer.Stop()
	loaded := false

	var logs []record.LogEntry
	logBytes := int64(0)
	logTrunc := false
	logSeen := int64(0) // every byte logged, kept or not
	addLog := func(level, msg string) {
		logSeen += int64(len(msg))
		if logTrunc {
			return
		}
		msg = redact(msg)
		if logBytes+int64(len(msg)) > LogCapBytes {
			logTrunc = true
			logs = append(logs, record.LogEntry{Level: "warn", Message: fmt.Sprintf("… logs truncated at %d KiB", LogCapBytes>>10)})
			return
		}
		logBytes += int64(len(msg))
		logs = append(logs, record.LogEntry{Level: level, Message: msg})
	}
	var final *event
	var requires []string
	inputSent := false
	sendLine(cfg)
	progress("running " + rec.Claim)
loop:
	for {
		select {
		case <-runCtx.Done():
			kill()
			killed = true
			rec.Error = &record.RunError{Name: "CanceledError", Message: "the run was cancelled"}
			break loop
		case <-timer.C:
			kill()
			killed = true
			msg := fmt.Sprintf("the tool did not finish within %s: the process group was ended", timeout)
			if !loaded {
				msg = fmt.Sprintf("the module did not load within %s: the process group was ended", loadTimeout)
			}
			rec.Error = &record.RunError{Name: "TimeoutError", Message: msg}
			break loop
		case ev, ok := <-events:
			if !ok {
				break loop
			}
			switch ev.T {
			case "describe":
				requires = ev.Requires
				input := req.Input
				if len(input) == 0 {
					input = exampleInput(ev.Schema)
				}
				if ev.Schema != nil {
					if e := checkInput(*ev.Schema, req.Tool, rel, input); e != nil {
						sendLine(map[string]any{"go": false})
						rec.Error = e
						break loop
					}
				}
				loaded = true
				deadline = time.Now().Add(timeout)
				timer.Reset(timeout + killGrace)
				gomsg := map[string]any{"go": true, "deadline": deadline.UnixMilli()}
				if len(req.Input) == 0 {
					gomsg["input"] = input
				}
				if slices.Contains(requires, "secrets.read") {
					sec := map[string]string{}
					why := map[string]string{}
					for _, r := range resolved {
						if r.Found() {
							sec[r.Name] = r.Value()
						} else {
							why[r.Name] = r.Reason
						}
					}
					gomsg["secrets"] = sec
					gomsg["secretErrors"] = why
					rec.Secrets = append(rec.Secrets, resolved...)
				}
				if slices.Contains(requires, "storage.kv") {
					gomsg["storage"] = req.Storage
				}
				if slices.Contains(requires, "collections.read") || slices.Contains(requires, "collections.write") {
					gomsg["collections"] = fx.Collections
				}
				inputSent = true
				sendLine(gomsg)
			case "approval":
				rec.Approval = &record.Approval{Required: ev.Required}
			case "log":
				addLog(level(ev.Level), ev.Message)
			case "notify":
				if len(rec.Notifications) < MaxNotifications {
					rec.Notifications = append(rec.Notifications, checker.Elide(redact(ev.Message), 4096))
				}
			case "conn":
				c := record.Connection{Protocol: ev.Protocol, Host: checker.Elide(ev.Host, 512), Port: ev.Port, Refused: ev.Refused}
				if len(rec.Connections) < MaxConnections {
					rec.Connections = append(rec.Connections, c)
				} else {
					rec.ConnectionsOmitted++
				}
				what := c.Protocol + " " + c.Host + ":" + strconv.Itoa(c.Port)
				if c.Refused != "" {
					what += " refused (" + c.Refused + ")"
				}
				progress(what)
			case "result", "error":
				e := ev
				final = &e
				break loop
			}
		}
	}
	_ = stdin.Close()
	_ = inputSent
	if !killed {
		// the harness exits by itself after the result; give it a moment,
		// then end the group (a child the module started, a socket held).
		done := make(chan struct{})
		go func() {
			for range events {
			}
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}
	kill()
	waitErr := cmd.Wait()
	for range events {
	}
	if ps := cmd.ProcessState; ps != nil {
		rec.Usage.MemoryPeakBytes = maxRSS(ps)
	}

	// Logs: console and ctx.log in order, then the raw stdout and stderr.
	rec.Logs = append(rec.Logs, logs...)
	for _, l := range splitLines(out.String()) {
		addLog("log", l)
	}
	rec.Logs = append(rec.Logs, logs[len(rec.Logs):]...)
	stderrText := errOut.String()
	for _, l := range splitLines(stderrText) {
		addLog("error", l)
	}
	rec.Logs = append(rec.Logs, logs[len(rec.Logs):]...)
	if out.over || errOut.over {
		if !logTrunc {
			rec.Logs = append(rec.Logs, record.LogEntry{Level: "warn", Message: fmt.Sprintf("… output truncated at %d KiB", LogCapBytes>>10)})
		}
	}
	rec.Usage.LogBytes = logSeen + int64(out.n+errOut.n) - int64(len(out.b)+len(errOut.b))

	switch {
	case rec.Error != nil:
		// cancelled, timed out or the input was refused
	case final != nil && final.T == "result":
		rec.OK = true
		rec.Result = json.RawMessage(redact(string(final.Value)))
		if !json.Valid(rec.Result) {
			rec.Result = json.RawMessage(strconv.Quote(string(rec.Result)))
		}
	case final != nil:
		stack, file, line, col := mapStack(final.Stack, dir, harness)
		rec.Error = &record.RunError{
			Name: redact(final.Name), Message: redact(final.Message), Stack: redact(stack),
			File: file, Line: line, Column: col, Path: final.Path,
		}
		if file == "" && (final.Name == "ImportError" || final.Name == "ToolError" || final.Name == "SyntaxError") {
			rec.Error.File = rel
		}
		if final.Name == "SyntaxError" && strings.Contains(final.Message, "Cannot use import statement") == false && strings.Contains(final.Message, "require is not defined") {
			rec.Error.Message += " (native modules are ES modules)"
		}
	case oom(stderrText, waitErr):
		rec.Error = &record.RunError{Name: "MemoryError", Message: fmt.Sprintf("out of memory: the Node heap is capped at %d MiB", memCap>>20)}
	default:
		msg := "the harness ended without a result"
		if waitErr != nil {
			msg += " (" + waitErr.Error() + ")"
		}
		if t := lastLines(stderrText, 5); t != "" {
			msg += ": " + redact(t)
		}
		rec.Error = &record.RunError{Name: "HarnessError", Message: msg, File: rel}
	}
	runner.CapRecord(rec)
	rec.DurationMs = ms(time.Since(start))
	if rec.OK {
		progress("returned")
	} else {
		progress("failed: " + rec.Error.Message)
	}
	return rec, nil
}

// readFixtures reads the plugin's fixtures.json through the plugin
// reader, or another file the user named (--fixtures).
func readFixtures(p *checker.Plugin, named, path string) ([]byte, error) {
	if named == "" {
		f, err := p.ReadFile(checker.FixturesName)
		if err != nil {
			return nil, err
		}
		return f.Text, nil
	}
	return checker.ReadPluginFile(checker.OSFS{}, filepath.Dir(path), filepath.Base(path))
}

func level(l string) string {
	switch l {
	case "log", "info", "warn", "error", "debug":
		return l
	}
	return "log"
}

// exampleInput is inputJsonSchema.examples[0], else {}.
func exampleInput(sch *string) json.RawMessage {
	if sch != nil {
		var s struct {
			Examples []json.RawMessage `json:"examples"`
		}
		if json.Unmarshal([]byte(*sch), &s) == nil && len(s.Examples) > 0 {
			return s.Examples[0]
		}
	}
	return json.RawMessage("{}")
}

// checkInput validates input against the module's inputJsonSchema (the
// runner's validator, schema.CompileInput).
func checkInput(text, tool, rel string, input json.RawMessage) *record.RunError {
	s, err := schema.CompileInput([]byte(text))
	if err != nil {
		return &record.RunError{Name: "InputError", File: rel, Message: fmt.Sprintf("tool %s: %v", tool, err)}
	}
	if len(input) == 0 {
		input = json.RawMessage("null")
	}
	vs := s.Validate(input)
	if len(vs) == 0 {
		return nil
	}
	return &record.RunError{Name: "InputError", File: rel,
		Message:    fmt.Sprintf("the input does not match the inputJsonSchema of tool %s: %s", tool, schema.Summary(vs)),
		Violations: vs}
}

// permissionFlags confine file reads to the plugin directory (and the
// harness) and writes to the run's temporary directory, with Node's
// permission model where the version has it (20: experimental).
func permissionFlags(major, minor int, dir, harness, tmp string) []string {
	flag := "--experimental-permission"
	if major > 23 || (major == 23 && minor >= 5) || (major == 22 && minor >= 13) {
		flag = "--permission"
	}
	return []string{flag,
		"--allow-fs-read=" + dir, "--allow-fs-read=" + harness, "--allow-fs-read=" + tmp,
		"--allow-fs-write=" + tmp,
		"--allow-child-process", "--allow-worker",
	}
}

// childEnv is the environment of the harness: the user's, without the
// dev secrets (they reach the module only through ctx.secrets) and
// without NODE_OPTIONS (which could undo the harness's flags).
func childEnv(tmp string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(strings.ToUpper(k), capability.DevSecretPrefix) || k == "NODE_OPTIONS" || k == "TMPDIR" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TMPDIR="+tmp)
}

var frameRe = regexp.MustCompile(`(file://[^\s()]+|/[^\s():]+):(\d+):(\d+)`)

// mapStack drops the harness's frames, shows files of the plugin by their
// relative path and finds the top frame inside the plugin.
func mapStack(stack, dir, harness string) (string, string, int, int) {
	var out []string
	file, line, col := "", 0, 0
	for _, l := range strings.Split(stack, "\n") {
		if strings.Contains(l, filepath.Base(harness)) || strings.Contains(l, "(node:") || strings.Contains(l, "at node:") {
			continue
		}
		l = frameRe.ReplaceAllStringFunc(l, func(m string) string {
			sm := frameRe.FindStringSubmatch(m)
			path := sm[1]
			if strings.HasPrefix(path, "file://") {
				if u, err := url.Parse(path); err == nil {
					path = u.Path
				}
			}
			r, err := filepath.Rel(dir, path)
			if err != nil || strings.HasPrefix(r, "..") {
				return m
			}
			r = filepath.ToSlash(r)
			if file == "" {
				file = r
				line, _ = strconv.Atoi(sm[2])
				col, _ = strconv.Atoi(sm[3])
			}
			return r + ":" + sm[2] + ":" + sm[3]
		})
		out = append(out, l)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n"), file, line, col
}

func oom(stderr string, err error) bool {
	return strings.Contains(stderr, "heap out of memory") || strings.Contains(stderr, "Reached heap limit")
}

func lastLines(s string, n int) string {
	ls := splitLines(s)
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return checker.Elide(strings.Join(ls, " | "), 2048)
}

func splitLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// readLine reads one line of at most max bytes (a longer one is dropped).
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	over := false
	for {
		chunk, isPrefix, err := br.ReadLine()
		if !over {
			buf = append(buf, chunk...)
			if len(buf) > max {
				buf, over = nil, true
			}
		}
		if err != nil {
			return buf, err
		}
		if !isPrefix {
			return buf, nil
		}
	}
}

// capBuf keeps the first max bytes written and counts the rest.
type capBuf struct {
	mu   sync.Mutex
	b    []byte
	n    int
	max  int
	over bool
}

func (c *capBuf) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += len(p)
	if room := c.max - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	if len(c.b) >= c.max && c.n > c.max {
		c.over = true
	}
	return len(p), nil
}

func (c *capBuf) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.b)
}

var _ io.Writer = (*capBuf)(nil)

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func callID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
