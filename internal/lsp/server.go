// Package lsp is the language server: protocol glue between an LSP client
// and the packages below it. It is the only package that imports
// go.lsp.dev/protocol. What an editor feature answers is computed in
// internal/ide as plain Go values (byte offsets, plugin-relative paths,
// checker edits); here they become protocol types, with URIs and UTF-16
// (or UTF-8) positions (convert.go), and are sent.
//
// One file per request family (gopls-style): server.go (the Server, its
// options, the connection loop), lifecycle.go (initialize, shutdown and the
// server's capabilities), capabilities.go (what the client declared, what
// is sent), text_sync.go and overlay.go (open documents), workspace.go
// (plugins, views), diagnostics.go (checks, publish and pull),
// code_action.go and fix_all.go, code_lens.go, inlay_hint.go, ide.go
// (hover, completion, definition), symbols.go, command.go (plugin.runTool), native.go (a native tool's run and the approval it needs, also before native test cases), nativeinfo.go (plugin.nativeTool: a native tool's schema for the run panel), explore.go (explored diagnostics after the static ones),
// tests.go (plugin.runTests, plugin.acceptSnapshot, plugin.generateTypes),
// pin.go (plugin.pin, plugin.reviewCard), authority.go (which directories
// the commands may touch), config.go (settings), docs.go (the rule docs'
// location), message.go (notices, and asking: window/showMessageRequest), backpressure.go, bigfile.go, memory.go
// and transport.go (the connection). Methods the server does not implement
// fall through to protocol.UnimplementedServer (nyi.go).
package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Options configure a Server. All fields are optional.
type Options struct {
	// Runner runs tools for plugin.runTool and the code lenses. Nil means
	// the command answers with an error saying the sandbox is unavailable.
	Runner runner.ToolRunner
	// NativeRunner runs native tools for plugin.runTool and the native
	// cases of plugin.runTests, each after the user approved its module
	// (window/showMessageRequest). Nil means plugin.runTool answers that
	// native tools cannot be run, and native cases are skipped.
	NativeRunner NativeRunner
	// Explore explores a plugin's function tools (internal/runner/explore);
	// its results are published after the static diagnostics, and a newer
	// edit cancels it (ctx). Nil: no exploration.
	Explore func(ctx context.Context, p *checker.Plugin) map[string]*checker.Exploration
	// onExplored, when set (tests), is called after an exploration's
	// diagnostics were published.
	onExplored func(dir string, gen uint64)
	// DocsURL is the base of rule documentation links; a diagnostic's
	// codeDescription is DocsURL + "#" + code. Empty omits codeDescription.
	DocsURL string
	// Debounce is the default delay between an edit and its check (the
	// client setting pluginLsp.debounceMs overrides it). Zero means 100 ms.
	Debounce time.Duration
	// Review builds the review card model for plugin.reviewCard; nil leaves
	// the command out.
	Review func(p *checker.Plugin) (any, error)
	// Log receives internal messages (panics, dropped errors); nil discards.
	Log io.Writer
	// Rules replaces rules.All() (tests).
	Rules []*checker.Rule
	// Version is reported in serverInfo.
	Version string
	// MaxLiveManifest replaces MaxLiveManifestBytes (tests).
	MaxLiveManifest int64
	// MemoryLimit, when set, is the process's base soft memory limit
	// (runtime/debug.SetMemoryLimit); the server raises it for a large
	// manifest (memory.go). Zero leaves the runtime's setting alone.
	MemoryLimit int64
}

// DefaultDebounce is the delay between an edit and the check it triggers.
const DefaultDebounce = 100 * time.Millisecond

type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// Server is one language-server session. Create it with New and run it with
// Serve; it serves exactly one connection.
type Server struct {
	nyi

	opts Options

	conn   jsonrpc2.Conn
	client protocol.Client
	flow   *flow // backpressure: what the read loop admits (backpressure.go)
	// ctx lives as long as the connection; checks and runs derive from it.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	state   lifecycle
	caps    clientCaps
	config  Settings
	roots   []string             // workspace folders (OS paths)
	docs    map[string]*document // open documents by OS path
	plugins map[string]*pluginState

	progressCancel map[string]func()             // (mu) run cancel by progress token
	runCancels     map[uint64]context.CancelFunc // (mu) runs in flight
	runSeq         uint64                        // (mu) numbers the runs
	approvals      ide.PinApprovals              // (mu) plugin.pin approval tokens by plugin directory
	nativeTrusted  ide.NativeTrust               // (mu) module hashes whose native runs the user approved this session

	trimTimer *time.Timer // (mu) returns memory to the OS once checks pause
	memLimit  int64       // (mu) the soft memory limit set, 0: none

	exitOnce sync.Once
	exited   chan struct{}
	exitCode int

	// observers are test hooks called after each publish.
	onPublish func(uri string, n int)
	onChecked func(dir string, gen uint64)
	checking  func(dir string)            // (mu) called as a check starts
	typesHook func(dir string, done bool) // (mu) called as a save's types regeneration starts and ends
}

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	configuration     bool
	workDoneProgress  bool
	pullDiagnostics   bool
	diagnosticRefresh bool
	codeLensRefresh   bool
	inlayHintRefresh  bool
	documentChanges   bool
	resourceCreate    bool
	watchRegistration bool

	enc             encoding // positionEncoding negotiated
	hoverMarkdown   bool     // textDocument.hover.contentFormat has markdown
	completionDocMD bool     // completionItem.documentationFormat has markdown
	diag            diagCaps // what a diagnostic may carry
}

// New returns a server with opts.
func New(opts Options) *Server {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	s := &Server{
		opts:    opts,
		docs:    map[string]*document{},
		plugins: map[string]*pluginState{},
		exited:  make(chan struct{}),
		config:  defaultSettings(),
	}
	s.nyi.s = s
	s.flow = newFlow(s.logf)
	return s
}

// Serve runs the server over stream until the client sends exit or the
// stream closes. It returns the process exit code the LSP spec asks for:
// 0 after shutdown+exit, 1 otherwise.
func (s *Server) Serve(ctx context.Context, stream jsonrpc2.Stream) int {
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	guarded := guardStream(stream, s.logf)
	s.mu.Lock()
	s.fitMemoryLimit(0) // the base limit, before anything is read
	s.mu.Unlock()
	conn := jsonrpc2.NewConn(flowStream{guarded, s.flow}, jsonrpc2.WithCodec(codec{}))
	s.conn = conn
	s.client = protocol.ClientDispatcher(flowConn{conn, s.flow})
	go func() { <-s.ctx.Done(); s.flow.close() }()
	conn.Go(protocol.WithClient(s.ctx, s.client), protocol.CancelHandler(s.handle(protocol.ServerHandler(s, nil))))
	select {
	case <-conn.Done():
		s.exitOnce.Do(func() { s.exitCode = 1; close(s.exited) })
		var end error
		if g, ok := guarded.(*guardedStream); ok {
			end = g.ended()
		}
		s.mu.Lock()
		shut := s.state == stateShutdown
		s.mu.Unlock()
		missing := "shutdown and exit"
		if shut {
			missing = "exit"
		}
		s.logf("%s, without %s: stopping (exit code 1)", endReason(end), missing)
	case <-s.exited:
		// jsonrpc2's Close waits for the read loop, which may sit in a
		// blocking read of stdin: after exit the process is done either
		// way, so give it a moment and move on.
		closed := make(chan struct{})
		go func() { conn.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(500 * time.Millisecond):
		}
	}
	s.cancel()
	s.stopChecks()
	return s.exitCode
}

// ServeStdio runs the server over a reader and a writer (the process's
// stdin and stdout) and returns the exit code.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) int {
	return s.Serve(ctx, jsonrpc2.NewStream(stdioConn{in, out}))
}

// stdioConn joins stdin and stdout into the stream the server reads and
// writes.
type stdioConn struct {
	r io.Reader
	w io.Writer
}

func (c stdioConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c stdioConn) Write(p []byte) (int, error) { return c.w.Write(p) }
func (c stdioConn) Close() error {
	if cl, ok := c.r.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

// codec marshals payloads with the protocol package's union-aware codec.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case protocol.LSPAny:
		// A command's answer, already JSON (a run record: json.Marshal's
		// output): written as it is, not decoded and formatted again.
		if m != nil && json.Valid(m) {
			return m, nil
		}
	}
	return protocol.Marshal(v)
}

// Unmarshal decodes a private copy of data. The protocol decoder may let
// decoded strings alias its input, and jsonrpc2 hands over frames it
// reuses for the next message (notifications run on the read loop;
// responses are decoded there too): a URI kept as a map key, or a
// configuration answer read a moment later, would change under our feet.
func (codec) Unmarshal(data []byte, v any) error {
	data = bytes.Clone(data)
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = data
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// errNotInitialized answers requests that arrive before initialize.
var errNotInitialized = jsonrpc2.NewError(jsonrpc2.Code(protocol.ErrorCodesServerNotInitialized), "server not initialized")

// errShutdown answers requests that arrive after shutdown.
var errShutdown = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down")

// handle wraps every incoming message: lifecycle checks, concurrency,
// panic recovery, and the rule that a failed notification is logged, never
// allowed to tear the connection down.
func (s *Server) handle(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := req.Method()
		isCall := req.IsCall()
		// Requests run concurrently so that one slow request (a tool run)
		// never blocks the others; notifications run in order on the read
		// loop, so text changes apply in the order they were sent. Every
		// call is released first, refused ones included: a released request
		// is never recycled, which the per-call cancel context (created by
		// the cancel handler before this one runs) relies on.
		// Before either, the message is admitted (backpressure.go): the
		// read loop waits here while the client leaves answers unread.
		s.flow.admit(isCall)
		var sup *pendingRequest
		if isCall {
			defer s.flow.done()
			var finished func()
			ctx, sup, finished = s.flow.supersede(ctx, method, req.Params())
			defer finished()
			jsonrpc2.Async(ctx)
			method = req.Method()
		}
		s.mu.Lock()
		state := s.state
		s.mu.Unlock()
		switch {
		case method == protocol.MethodExit:
		case state == stateNew && method != protocol.MethodInitialize:
			if isCall {
				return nil, errNotInitialized
			}
			return nil, nil // notifications before initialize are dropped
		case state == stateShutdown && isCall:
			return nil, errShutdown
		}
		defer func() {
			if e := recover(); e != nil {
				msg := fmt.Sprintf("plugin-lsp: internal error in %s: %v", method, e)
				s.logf("%s\n%s", msg, debug.Stack())
				s.logClient(protocol.MessageTypeError, msg+" (please report this; the server keeps running)")
				if isCall {
					result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, msg)
				} else {
					result, err = nil, nil
				}
			}
		}()
		if sup != nil && sup.superseded.Load() {
			return nil, errSuperseded
		}
		result, err = next(ctx, req)
		if sup != nil && sup.superseded.Load() {
			return nil, errSuperseded // a newer request answers for it
		}
		if errors.Is(err, jsonrpc2.ErrParse) {
			// Params that do not decode are invalid params, not a parse
			// error of the message; a method outside the protocol sent
			// without params never reached the fallback: answer for it.
			if len(req.Params()) == 0 {
				result, err = s.nyi.Request(ctx, method, nil)
			} else {
				err = jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", method, err)
			}
		}
		if !isCall && err != nil {
			if errors.Is(err, jsonrpc2.ErrMethodNotFound) {
				return nil, nil // unknown notifications are ignored (spec)
			}
			s.logf("notification %s failed: %v", method, err)
			s.logClient(protocol.MessageTypeWarning, fmt.Sprintf("plugin-lsp: %s: %v", method, err))
			return nil, nil
		}
		return result, err
	}
}

// logf writes an internal message to Options.Log.
func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "plugin-lsp: "+format+"\n", args...)
	}
}

// logClient sends window/logMessage; errors are ignored (the client may be
// gone).
func (s *Server) logClient(t protocol.MessageType, msg string) {
	if s.client == nil {
		return
	}
	_ = s.client.LogMessage(s.ctx, &protocol.LogMessageParams{Type: t, Message: text.VisibleBlock(msg)})
}

// safeGo runs f on a goroutine that recovers and reports panics.
func (s *Server) safeGo(what string, f func()) {
	go func() {
		defer func() {
			if e := recover(); e != nil {
				msg := fmt.Sprintf("plugin-lsp: internal error in %s: %v", what, e)
				s.logf("%s\n%s", msg, debug.Stack())
				s.logClient(protocol.MessageTypeError, msg)
			}
		}()
		f()
	}()
}

func errInvalidRequest(msg string) error { return jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg) }
