package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// copyExample copies testdata/example/books into a temp dir and returns it.
func copyExample(t testing.TB) string {
	t.Helper()
	return copyTree(t, filepath.Join("..", "..", "testdata", "example", "books"), filepath.Join(t.TempDir(), "books"))
}

// testClient records what the server sends.
type testClient struct {
	protocol.UnimplementedClient
	mu       sync.Mutex
	diags    map[string]*protocol.PublishDiagnosticsParams
	pubs     []*protocol.PublishDiagnosticsParams
	logs     []string
	shown    []string // window/showMessage
	progress []string // kinds: begin/report/end
	settings json.RawMessage
	// refreshes counts workspace/diagnostic/refresh requests.
	refreshes int
	// lensRefreshes counts workspace/codeLens/refresh requests.
	lensRefreshes int
	// registrations counts client/registerCapability requests.
	registrations int
	// askMessage answers window/showMessageRequest (nil: the request fails).
	askMessage func(p *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error)
	changed    chan struct{}
}

func newTestClient() *testClient {
	return &testClient{diags: map[string]*protocol.PublishDiagnosticsParams{}, changed: make(chan struct{}, 1000)}
}

func (c *testClient) poke() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

func (c *testClient) PublishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	c.diags[string(p.URI)] = p
	c.pubs = append(c.pubs, p)
	c.mu.Unlock()
	c.poke()
	return nil
}

func (c *testClient) ShowMessage(ctx context.Context, p *protocol.ShowMessageParams) error {
	c.mu.Lock()
	c.shown = append(c.shown, p.Message)
	c.mu.Unlock()
	c.poke()
	return nil
}

func (c *testClient) LogMessage(ctx context.Context, p *protocol.LogMessageParams) error {
	c.mu.Lock()
	c.logs = append(c.logs, p.Message)
	c.mu.Unlock()
	c.poke()
	return nil
}

func (c *testClient) Configuration(ctx context.Context, p *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]protocol.LSPAny, len(p.Items))
	for i := range out {
		out[i] = protocol.LSPAny("null")
		if c.settings != nil {
			out[i] = protocol.LSPAny(c.settings)
		}
	}
	return out, nil
}

func (c *testClient) WorkDoneProgressCreate(ctx context.Context, p *protocol.WorkDoneProgressCreateParams) error {
	return nil
}

func (c *testClient) Progress(ctx context.Context, p *protocol.ProgressParams) error {
	var v struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(p.Value, &v)
	c.mu.Lock()
	c.progress = append(c.progress, v.Kind)
	c.mu.Unlock()
	c.poke()
	return nil
}

func (c *testClient) RegisterCapability(ctx context.Context, p *protocol.RegistrationParams) error {
	c.mu.Lock()
	c.registrations++
	c.mu.Unlock()
	return nil
}
func (c *testClient) DiagnosticRefresh(ctx context.Context) error {
	c.mu.Lock()
	c.refreshes++
	c.mu.Unlock()
	c.poke()
	return nil
}

func (c *testClient) CodeLensRefresh(ctx context.Context) error {
	c.mu.Lock()
	c.lensRefreshes++
	c.mu.Unlock()
	c.poke()
	return nil
}
func (c *testClient) InlayHintRefresh(ctx context.Context) error { return nil }

// harness is a server on one end of a pipe and a client on the other.
type harness struct {
	t      testing.TB
	srv    *Server
	client *testClient
	conn   jsonrpc2.Conn
	server protocol.Server
	ctx    context.Context
	done   chan int
	dir    string

	checkMu sync.Mutex
	checked map[string]uint64
	checkC  chan struct{}

	typesMu                  sync.Mutex
	typesStarted, typesEnded int
	typesC                   chan struct{}
}

func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	if opts.Debounce == 0 {
		opts.Debounce = -1 // check at once: tests wait for results, never for time
	}
	ctx, cancel := context.WithCancel(context.Background())
	left, right := jsonrpc2.NewChannelStreamPair(64)
	h := &harness{t: t, srv: New(opts), client: newTestClient(), done: make(chan int, 1), checked: map[string]uint64{}, checkC: make(chan struct{}, 1000)}
	h.srv.onChecked = func(dir string, gen uint64) {
		h.checkMu.Lock()
		// The newest generation checked: an older check that finishes
		// later (its publish and diagnostic refresh took longer) must not
		// take it back, or waitChecked waits for a check that already ran.
		h.checked[dir] = max(h.checked[dir], gen)
		h.checkMu.Unlock()
		select {
		case h.checkC <- struct{}{}:
		default:
		}
	}
	h.typesC = make(chan struct{}, 1000)
	h.srv.typesHook = func(dir string, done bool) {
		h.typesMu.Lock()
		if done {
			h.typesEnded++
		} else {
			h.typesStarted++
		}
		h.typesMu.Unlock()
		select {
		case h.typesC <- struct{}{}:
		default:
		}
	}
	go func() { h.done <- h.srv.Serve(ctx, left) }()
	h.ctx, h.conn, h.server = newClientConn(ctx, h.client, right)
	t.Cleanup(func() {
		cancel()
		h.conn.Close()
		select {
		case <-h.done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
	})
	return h
}

// newClientConn is protocol.NewClient with the server's copying codec:
// the library's own codec lets decoded results alias frames it reuses.
func newClientConn(ctx context.Context, client protocol.Client, stream jsonrpc2.Stream) (context.Context, jsonrpc2.Conn, protocol.Server) {
	ctx = protocol.WithClient(ctx, client)
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(codec{}))
	// Notifications are handled in order (as an editor does), calls
	// concurrently.
	h := protocol.ClientHandler(client, jsonrpc2.MethodNotFoundHandler)
	conn.Go(ctx, protocol.CancelHandler(func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			jsonrpc2.Async(ctx)
		}
		return h(ctx, req)
	}))
	return ctx, conn, protocol.ServerDispatcher(conn)
}

// initialize runs initialize + initialized with the given root (may be "").
func (h *harness) initialize(root string, caps protocol.ClientCapabilities) *protocol.InitializeResult {
	h.t.Helper()
	p := &protocol.InitializeParams{Capabilities: caps}
	if root != "" {
		p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "root"}})
	}
	res, err := h.server.Initialize(h.ctx, p)
	if err != nil {
		h.t.Fatalf("initialize: %v", err)
	}
	if err := h.server.Initialized(h.ctx, &protocol.InitializedParams{}); err != nil {
		h.t.Fatal(err)
	}
	return res
}

func (h *harness) open(path string) {
	h.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatal(err)
	}
	h.openText(path, string(b))
}

func (h *harness) openText(path, text string) {
	h.t.Helper()
	err := h.server.DidOpen(h.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri.File(path), LanguageID: "json", Version: 1, Text: text,
	}})
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) change(path string, version int32, text string) {
	h.t.Helper()
	err := h.server.DidChange(h.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(path)}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: text}},
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// save writes text to path, as the editor does on save, sends didSave
// and waits for the check and for the types regeneration the save may
// start (typesOnSave).
func (h *harness) save(path, text string) {
	h.t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		h.t.Fatal(err)
	}
	err := h.server.DidSave(h.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}})
	if err != nil {
		h.t.Fatal(err)
	}
	h.sync()
	h.waitTypes()
}

// waitTypes waits until every types regeneration started so far ended.
func (h *harness) waitTypes() {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		h.typesMu.Lock()
		n := h.typesStarted - h.typesEnded
		h.typesMu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-h.typesC:
		case <-deadline:
			h.t.Fatal("timed out waiting for the types regeneration")
		}
	}
}

// waitDiags waits until the last publish for path satisfies ok.
func (h *harness) waitDiags(path string, ok func(p *protocol.PublishDiagnosticsParams) bool) *protocol.PublishDiagnosticsParams {
	h.t.Helper()
	return h.waitDiagsWithin(10*time.Second, path, ok)
}

// waitDiagsWithin is waitDiags with another deadline (large inputs).
func (h *harness) waitDiagsWithin(limit time.Duration, path string, ok func(p *protocol.PublishDiagnosticsParams) bool) *protocol.PublishDiagnosticsParams {
	h.t.Helper()
	u := string(uri.File(path))
	deadline := time.After(limit)
	for {
		h.client.mu.Lock()
		p := h.client.diags[u]
		h.client.mu.Unlock()
		if p != nil && ok(p) {
			return p
		}
		select {
		case <-h.client.changed:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			h.t.Fatalf("timed out waiting for diagnostics of %s; last: %s", path, dump(p))
			return nil
		}
	}
}

// sync returns once the server has handled every message sent before it:
// notifications run in order on the read loop, before the next call.
func (h *harness) sync() {
	h.t.Helper()
	var res json.RawMessage
	_, _ = h.conn.Call(h.ctx, "test/sync", map[string]any{}, &res)
}

// waitChecked waits until the check of the plugin in dir has caught up
// with every change sent so far.
func (h *harness) waitChecked(dir string) {
	h.t.Helper()
	h.sync()
	deadline := time.After(10 * time.Second)
	for {
		h.srv.mu.Lock()
		gen := uint64(0)
		if ps := h.srv.plugins[dir]; ps != nil {
			gen = ps.gen
		}
		h.srv.mu.Unlock()
		h.checkMu.Lock()
		got := h.checked[dir]
		h.checkMu.Unlock()
		if got >= gen && gen > 0 {
			return
		}
		select {
		case <-h.checkC:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			var stacks strings.Builder
			_ = pprof.Lookup("goroutine").WriteTo(&stacks, 1)
			h.t.Fatalf("timed out waiting for the check of %s (gen %d, got %d); goroutines:\n%s", dir, gen, got, stacks.String())
		}
	}
}

// waitSettings waits until the server applied settings satisfying ok.
func (h *harness) waitSettings(ok func(Settings) bool) {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		h.srv.mu.Lock()
		st := h.srv.config
		h.srv.mu.Unlock()
		if ok(st) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatal("settings never applied")
}

func dump(v any) string {
	b, _ := protocol.Marshal(v)
	return string(b)
}

func codes(p *protocol.PublishDiagnosticsParams) []string {
	var out []string
	for _, d := range p.Diagnostics {
		if s, ok := d.Code.(protocol.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

func hasCode(p *protocol.PublishDiagnosticsParams, code string) bool {
	for _, c := range codes(p) {
		if c == code {
			return true
		}
	}
	return false
}

// rpcCode returns the JSON-RPC error code of err, or 0.
func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// applyTextEdits applies LSP edits (any order, non-overlapping) to text.
func applyTextEdits(t testing.TB, text string, edits []protocol.TextEdit) string {
	t.Helper()
	f := checker.NewFile("", []byte(text))
	var es []checker.Edit
	for _, e := range edits {
		es = append(es, checker.Edit{Span: encUTF16.fromRange(f, e.Range), NewText: e.NewText})
	}
	out, err := fixes.ApplyText([]byte(text), es)
	if err != nil {
		t.Fatalf("overlapping edits %s", dump(edits))
	}
	return string(out)
}

// editsFor collects the text edits for path from a workspace edit.
func editsFor(t testing.TB, we *protocol.WorkspaceEdit, path string) []protocol.TextEdit {
	t.Helper()
	u := uri.File(path)
	var out []protocol.TextEdit
	out = append(out, we.Changes[u]...)
	for _, dc := range we.DocumentChanges {
		if te, ok := dc.(*protocol.TextDocumentEdit); ok && te.TextDocument.URI == u {
			for _, e := range te.Edits {
				if x, ok := e.(*protocol.TextEdit); ok {
					out = append(out, *x)
				}
			}
		}
	}
	return out
}

func mustRead(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// richCaps declares what a full client (VS Code) reads: Markdown hover and
// completion docs, relatedInformation, codeDescription and both tags. The
// tests of those features start from it; the degraded forms are tested
// against the client profiles (profile_test.go).
func richCaps() protocol.ClientCapabilities {
	diag := protocol.DiagnosticsCapabilities{
		RelatedInformation: new(true), CodeDescriptionSupport: new(true),
		TagSupport: protocol.ClientDiagnosticsTagOptions{ValueSet: []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary, protocol.DiagnosticTagDeprecated}},
	}
	md := []protocol.MarkupKind{protocol.MarkupKindMarkdown, protocol.MarkupKindPlainText}
	return protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{
		Hover:              &protocol.HoverClientCapabilities{ContentFormat: md},
		Completion:         &protocol.CompletionClientCapabilities{CompletionItem: &protocol.ClientCompletionItemOptions{DocumentationFormat: md}},
		PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{DiagnosticsCapabilities: diag},
	}}
}
