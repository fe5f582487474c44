package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// needsCaps is a test rule standing in for the page rules: for every
// "// needs: fetch <host>" or "// needs: host <method>" comment in a page
// it reports, at the comment, a capability missing from plugin.json, with
// the fix that adds it (an edit in another file than the diagnostic).
var needsCaps = &checker.Rule{
	Code: "test-needs", Severity: checker.Error, Title: "test rule",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		for _, t := range p.Manifest.Tools {
			pg, _ := checker.Str(t.Page)
			rel, ok := p.ResolvePage(pg)
			if !ok {
				continue
			}
			f, err := p.ReadFile(rel)
			if err != nil {
				continue
			}
			for off := 0; ; {
				i := bytes.Index(f.Text[off:], []byte("// needs: "))
				if i < 0 {
					break
				}
				st := off + i
				end := st + bytes.IndexByte(f.Text[st:], '\n')
				if end < st {
					end = len(f.Text)
				}
				off = end
				kind, val, _ := strings.Cut(strings.TrimPrefix(string(f.Text[st:end]), "// needs: "), " ")
				code, path, have := "fetch-undeclared-domain", []string{"capabilities", "fetch"}, capability.FromManifest(p.Manifest).Domains()
				if kind == "host" {
					code, path, have = "host-undeclared-method", []string{"capabilities", "host"}, capability.FromManifest(p.Manifest).Host
				}
				found := false
				for _, h := range have {
					found = found || h == val
				}
				if found {
					continue
				}
				q, _ := json.Marshal(val)
				e, err := jsonedit.AddToPath(p.ManifestFile, p.Manifest.Root, path, string(q))
				d := checker.Diagnostic{File: rel, Span: checker.Span{Start: st, End: end}, Code: code,
					Message: val + " is not declared",
					Related: []checker.Related{{File: checker.ManifestName, Span: checker.SpanOf(t.Name), Message: "the tool"}}}
				if err == nil {
					d.Fixes = []checker.Fix{{Title: "Add " + val, Edits: []checker.Edit{e}}}
				}
				pass.Report(d)
			}
		}
	},
}

func testRules() []*checker.Rule { return append(rules.All(), needsCaps) }

// fakeRunner answers runs from a function.
type fakeRunner struct {
	run func(ctx context.Context, req runner.Request) (*record.Record, error)
	got chan runner.Request
}

func (f *fakeRunner) Run(ctx context.Context, req runner.Request) (*record.Record, error) {
	if f.got != nil {
		f.got <- req
	}
	return f.run(ctx, req)
}

func hobbitRecord(req runner.Request) *record.Record {
	if req.Progress != nil {
		req.Progress("fetch https://api.openlibrary.org/isbn/9780261103344.json")
	}
	return &record.Record{
		Claim: "fn." + req.Tool + ":1", OK: true,
		Result:     json.RawMessage(`{"type":"stat","value":"The Hobbit","label":"Title"}`),
		DurationMs: 12,
		Fetches: []record.FetchEntry{
			{Method: "GET", URL: "https://api.openlibrary.org/isbn/9780261103344.json", Status: 200, Source: "fixture", Host: "api.openlibrary.org", Credentials: []string{"openlibrary_key"}},
		},
	}
}

func TestRequestsBeforeInitializeAreRefused(t *testing.T) {
	h := newHarness(t, Options{})
	var res json.RawMessage
	_, err := h.conn.Call(h.ctx, "textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": "file:///x/plugin.json"}, "position": map[string]any{"line": 0, "character": 0},
	}, &res)
	if got := rpcCode(err); got != jsonrpc2.Code(protocol.ErrorCodesServerNotInitialized) {
		t.Fatalf("hover before initialize: error %v (code %d), want ServerNotInitialized", err, got)
	}
	// a notification before initialize is dropped, and the server lives on
	if err := h.conn.Notify(h.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///x/plugin.json", "languageId": "json", "version": 1, "text": "{"}}); err != nil {
		t.Fatal(err)
	}
	h.initialize("", protocol.ClientCapabilities{})
	if _, err := h.server.Initialize(h.ctx, &protocol.InitializeParams{}); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("second initialize: %v, want InvalidRequest", err)
	}
}

func TestInitializeCapabilities(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.initialize("", pullCaps())
	raw := dump(res)
	for _, want := range []string{`"textDocumentSync":{"openClose":true,"change":2`, `"codeActionProvider"`, `"codeLensProvider"`, `"hoverProvider":true`,
		`"completionProvider"`, `"definitionProvider":true`, `"documentSymbolProvider":true`, `"inlayHintProvider":true`,
		`"diagnosticProvider"`, `"commands":["plugin.runTool","plugin.pin","plugin.runTests","plugin.acceptSnapshot","plugin.generateTypes","plugin.nativeTool"]`, `"workspaceFolders":{"supported":true`} {
		if !strings.Contains(raw, want) {
			t.Errorf("initialize result lacks %s:\n%s", want, raw)
		}
	}
}

func TestUnknownMethods(t *testing.T) {
	h := newHarness(t, Options{})
	h.initialize("", protocol.ClientCapabilities{})
	var res json.RawMessage
	_, err := h.conn.Call(h.ctx, "plugin/noSuchThing", map[string]any{}, &res)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown request: %v, want MethodNotFound", err)
	}
	_, err = h.conn.Call(h.ctx, "$/noSuchRequest", nil, &res)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown $/ request: %v, want MethodNotFound", err)
	}
	// standard but unimplemented
	_, err = h.conn.Call(h.ctx, "textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": "file:///x"}, "position": map[string]any{"line": 0, "character": 0}, "newName": "x"}, &res)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("rename: %v, want MethodNotFound", err)
	}
	for _, m := range []string{"$/noSuchNotification", "plugin/noSuchNotification", "$/setTrace"} {
		if err := h.conn.Notify(h.ctx, m, map[string]any{"value": "off"}); err != nil {
			t.Fatal(err)
		}
	}
	// malformed params of a notification do not tear the connection down
	if err := h.conn.Notify(h.ctx, "textDocument/didChange", map[string]any{"textDocument": 42}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.server.Hover(h.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file:///nowhere/x.json"}}}); err != nil {
		t.Fatalf("server unusable after unknown methods: %v", err)
	}
}

func TestShutdownThenExit(t *testing.T) {
	h := newHarness(t, Options{})
	h.initialize("", protocol.ClientCapabilities{})
	if err := h.server.Shutdown(h.ctx); err != nil {
		t.Fatal(err)
	}
	var res json.RawMessage
	_, err := h.conn.Call(h.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x"}, "position": map[string]any{"line": 0, "character": 0}}, &res)
	if rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("request after shutdown: %v, want InvalidRequest", err)
	}
	_ = h.server.Exit(h.ctx)
	select {
	case code := <-h.done:
		if code != 0 {
			t.Fatalf("exit after shutdown: code %d, want 0", code)
		}
		h.done <- code
	case <-time.After(5 * time.Second):
		t.Fatal("server did not exit")
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	h := newHarness(t, Options{})
	h.initialize("", protocol.ClientCapabilities{})
	_ = h.server.Exit(h.ctx)
	select {
	case code := <-h.done:
		if code != 1 {
			t.Fatalf("exit without shutdown: code %d, want 1", code)
		}
		h.done <- code
	case <-time.After(5 * time.Second):
		t.Fatal("server did not exit")
	}
}

func TestDiagnosticsFollowTheBuffer(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{DocsURL: "file:///repo/docs/rules.md"})
	h.initialize(dir, richCaps())
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return true })
	if len(p.Diagnostics) != 0 {
		t.Fatalf("the example is clean, got %s", dump(p.Diagnostics))
	}
	// an unsaved edit breaks the manifest: the diagnostic follows the buffer, not the disk
	text := mustRead(t, manifest)
	broken := strings.Replace(text, `"version": "1.2.0",`, `"version": "1.2.0",,`, 1)
	h.change(manifest, 2, broken)
	p = h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "manifest-syntax") })
	if v, _ := p.Version.Get(); v != 2 {
		t.Errorf("version %d, want 2", v)
	}
	d := p.Diagnostics[0]
	if d.Range.Start.Line != 2 {
		t.Errorf("syntax error on line %d, want 2 (0-based): %s", d.Range.Start.Line, dump(d))
	}
	if d.CodeDescription.Href != "file:///repo/docs/rules.md#manifest-syntax" {
		t.Errorf("codeDescription %q", d.CodeDescription.Href)
	}
	if src, _ := d.Source.Get(); src != "plugin-lsp" {
		t.Errorf("source %q", src)
	}
	// fixed again: the list is emptied
	h.change(manifest, 3, text)
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	// closing reverts to the disk, which is clean
	_ = h.server.DidClose(h.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}})
	h.waitChecked(dir)
}

func TestPublishedJSONUsesEmptyArrays(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return true })
	if raw := dump(p); !strings.Contains(raw, `"diagnostics":[]`) {
		t.Fatalf("empty diagnostics must be [], got %s", raw)
	}
}

func TestUnchangedDiagnosticsAreNotRepublished(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, manifest)
	broken := strings.TrimSuffix(strings.TrimSpace(text), "}")
	h.openText(manifest, broken)
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "manifest-syntax") })
	h.waitChecked(dir)
	h.client.mu.Lock()
	before := len(h.client.pubs)
	h.client.mu.Unlock()
	// an edit to a page that changes no diagnostic
	page := filepath.Join(dir, "code", "lookup-book.ts")
	h.open(page)
	h.waitChecked(dir)
	h.change(page, 2, mustRead(t, page)+"\n// a comment\n")
	h.waitChecked(dir)
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	for _, p := range h.client.pubs[before:] {
		if p.URI == uri.File(manifest) {
			t.Errorf("plugin.json republished with unchanged diagnostics: %s", dump(p))
		}
	}
}

func TestDebounceKeepsOnlyTheLastEdit(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Debounce: 300 * time.Millisecond})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, manifest)
	h.openText(manifest, text)
	for v := int32(2); v <= 6; v++ {
		h.change(manifest, v, text[:len(text)-int(v)]) // each version broken differently
	}
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { v, _ := p.Version.Get(); return v == 6 })
	if !hasCode(p, "manifest-syntax") {
		t.Fatalf("want manifest-syntax, got %s", dump(p))
	}
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	for _, p := range h.client.pubs {
		if v, _ := p.Version.Get(); v > 1 && v < 6 {
			t.Errorf("published diagnostics of superseded version %d", v)
		}
	}
}

// pullCaps declares pull diagnostics with refresh support.
func pullCaps() protocol.ClientCapabilities {
	return protocol.ClientCapabilities{
		TextDocument: &protocol.TextDocumentClientCapabilities{Diagnostic: &protocol.DiagnosticClientCapabilities{}},
		Workspace:    &protocol.WorkspaceClientCapabilities{Diagnostics: &protocol.DiagnosticWorkspaceClientCapabilities{RefreshSupport: new(true)}},
	}
}

func TestPullDiagnostics(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	if res := h.initialize(dir, pullCaps()); res.Capabilities.DiagnosticProvider == nil {
		t.Fatal("a pull client with refresh support is not offered diagnosticProvider")
	}
	manifest := filepath.Join(dir, "plugin.json")
	h.openText(manifest, `{"name": "books",`)
	rep, err := h.server.Diagnostic(h.ctx, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}})
	if err != nil {
		t.Fatal(err)
	}
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || len(full.Items) == 0 || full.ResultID == nil {
		t.Fatalf("want a full report with items, got %s", dump(rep))
	}
	rep, err = h.server.Diagnostic(h.ctx, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, PreviousResultID: full.ResultID})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rep.(*protocol.RelatedUnchangedDocumentDiagnosticReport); !ok {
		t.Fatalf("same result again: want unchanged, got %s", dump(rep))
	}
	// a pull client gets no pushes for open files, but a page nobody
	// opened still shows its problems
	h.change(manifest, 2, mustRead(t, manifest))
	page := filepath.Join(dir, "code", "lookup-book.ts")
	if err := os.WriteFile(page, []byte(strings.Replace(mustRead(t, page), "https://api.openlibrary.org", "https://books.example.org", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = h.server.DidChangeWatchedFiles(h.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(page), Type: protocol.FileChangeTypeChanged}}})
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-undeclared-domain") })
	// opening it hands it over to the pull: the push is cleared
	h.open(page)
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	h.waitChecked(dir)
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	for _, p := range h.client.pubs {
		if p.URI == uri.File(manifest) {
			t.Fatalf("pushed an open file to a pull client: %s", dump(p))
		}
	}
}

func TestWorkspaceFoldersWithSeveralPlugins(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "a", "plugin.json"), []byte(`{"name": "a", "version": "1.0.0"`), 0o644)
	os.WriteFile(filepath.Join(root, "b", "plugin.json"), []byte(`{"name": "b", "version": `), 0o644)
	h := newHarness(t, Options{})
	h.initialize(root, protocol.ClientCapabilities{})
	// both plugins are checked without opening anything
	for _, name := range []string{"a", "b"} {
		h.waitDiags(filepath.Join(root, name, "plugin.json"), func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "manifest-syntax") })
	}
	// a file fixed on disk: didChangeWatchedFiles re-checks it
	os.WriteFile(filepath.Join(root, "a", "plugin.json"), []byte(`{"name": "a", "version": "1.0.0"}`), 0o644)
	h.server.DidChangeWatchedFiles(h.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(filepath.Join(root, "a", "plugin.json")), Type: protocol.FileChangeTypeChanged}}})
	h.waitDiags(filepath.Join(root, "a", "plugin.json"), func(p *protocol.PublishDiagnosticsParams) bool { return !hasCode(p, "manifest-syntax") })
	// removing the folder clears what was published for it
	h.server.DidChangeWorkspaceFolders(h.ctx, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Removed: []protocol.WorkspaceFolder{{URI: uri.File(root), Name: "root"}}, Added: []protocol.WorkspaceFolder{},
	}})
	h.waitDiags(filepath.Join(root, "b", "plugin.json"), func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

func TestQuickFixInManifestForPageDiagnostic(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Rules: testRules()})
	caps := richCaps()
	caps.Workspace = &protocol.WorkspaceClientCapabilities{WorkspaceEdit: &protocol.WorkspaceEditClientCapabilities{DocumentChanges: new(true)}}
	h.initialize(dir, caps)
	page := filepath.Join(dir, "code", "lookup-book.ts")
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, page) + "// needs: fetch example.org\n"
	h.openText(page, text)
	p := h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-undeclared-domain") })
	d := p.Diagnostics[0]
	if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != uri.File(manifest) {
		t.Errorf("relatedInformation should point at the manifest: %s", dump(d.RelatedInformation))
	}
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 {
		t.Fatalf("want 1 action, got %s", dump(acts))
	}
	ca := acts[0].(*protocol.CodeAction)
	if ca.Title != "Add example.org" || *ca.Kind != protocol.CodeActionKindQuickFix || ca.IsPreferred == nil || !*ca.IsPreferred {
		t.Errorf("action %s", dump(ca))
	}
	edits := editsFor(t, ca.Edit, manifest)
	if len(edits) != 1 {
		t.Fatalf("want one edit of plugin.json, got %s", dump(ca.Edit))
	}
	fixed := applyTextEdits(t, mustRead(t, manifest), edits)
	if !strings.Contains(fixed, `"example.org"`) {
		t.Fatalf("fix did not add the domain:\n%s", fixed)
	}
	h.openText(manifest, fixed)
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

func TestAddAllMissingCapabilities(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Rules: testRules()})
	h.initialize(dir, protocol.ClientCapabilities{})
	page := filepath.Join(dir, "code", "lookup-book.ts")
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, page) + "// needs: fetch example.org\n// needs: host collections.query\n// needs: fetch cdn.example.org\n"
	h.openText(page, text)
	p := h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 3 })
	whole := protocol.Range{Start: protocol.Position{}, End: p.Diagnostics[2].Range.End}
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Range: whole})
	if err != nil {
		t.Fatal(err)
	}
	var all *protocol.CodeAction
	for _, a := range acts {
		if ca := a.(*protocol.CodeAction); strings.HasPrefix(ca.Title, "Add all 3 missing capabilities") {
			all = ca
		}
	}
	if all == nil {
		t.Fatalf("no add-all action in %s", dump(acts))
	}
	fixed := applyTextEdits(t, mustRead(t, manifest), editsFor(t, all.Edit, manifest))
	for _, want := range []string{`"example.org"`, `"cdn.example.org"`, `"collections.query"`} {
		if !strings.Contains(fixed, want) {
			t.Errorf("fixed manifest lacks %s:\n%s", want, fixed)
		}
	}
	h.openText(manifest, fixed)
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return !hasCode(p, "manifest-syntax") })
}

// The glue of a create action: a CreateFile, then the edit of the created
// file's URI (what each action offers and its template: the markers in
// internal/ide/testdata/markers/actions-create).
func TestSourceActionCreatesMissingPageAndModule(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	text := strings.Replace(mustRead(t, manifest), `"page": "code/save-favourite"`, `"page": "code/new-tool"`, 1)
	text = strings.Replace(text, `"native/telegram.js"`, `"native/chat.js"`, 1)
	h.openText(manifest, text)
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindSource}}})
	if err != nil {
		t.Fatal(err)
	}
	var created []string
	for _, a := range acts {
		ca := a.(*protocol.CodeAction)
		if *ca.Kind != protocol.CodeActionKindSource {
			t.Errorf("kind %s", *ca.Kind)
		}
		create, ok := ca.Edit.DocumentChanges[0].(*protocol.CreateFile)
		if !ok || len(ca.Edit.DocumentChanges) != 2 {
			t.Fatalf("want CreateFile + edit, got %s", dump(ca.Edit))
		}
		te := ca.Edit.DocumentChanges[1].(*protocol.TextDocumentEdit)
		if te.TextDocument.URI != create.URI || len(te.Edits) != 1 || te.Edits[0].(*protocol.TextEdit).NewText == "" {
			t.Errorf("edit of %s after creating %s: %s", te.TextDocument.URI, create.URI, dump(te))
		}
		created = append(created, string(create.URI))
	}
	want := []string{string(uri.File(filepath.Join(dir, "code", "new-tool.ts"))), string(uri.File(filepath.Join(dir, "native", "chat.js")))}
	if strings.Join(created, "|") != strings.Join(want, "|") {
		t.Fatalf("created %q, want %q", created, want)
	}
}

// toCommand sends each command of package ide with the argument object
// the commands read (the same JSON as before ide computed them): the
// file as its URI, as the client spelled it when the document is open.
func TestCommandsConverted(t *testing.T) {
	dir := copyExample(t)
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	openURI := "file:///client/spelling/plugin.json"
	vw := &view{plugin: p, docs: map[string]*document{p.Abs("plugin.json"): {uri: openURI}}}
	page := string(uri.File(p.Abs("code/lookup-book.ts")))
	for _, c := range []struct {
		cmd  ide.Command
		want string
	}{
		{ide.Command{Title: "▶ Run lookupBook", Name: ide.CommandRunTool, File: "code/lookup-book.ts", Tool: "lookupBook"}, `{"uri":"` + page + `","tool":"lookupBook"}`},
		{ide.Command{Title: "▶ Run lookupBook", Name: ide.CommandRunTool, File: "plugin.json", Tool: "lookupBook"}, `{"uri":"` + openURI + `","tool":"lookupBook"}`},
		{ide.Command{Title: "▶ Run test", Name: ide.CommandRunTests, File: "tests/a.json", Case: "x"}, `{"uri":"` + string(uri.File(p.Abs("tests/a.json"))) + `","name":"x"}`},
		{ide.Command{Title: "▶ Run all", Name: ide.CommandRunTests, File: "tests/a.json"}, `{"uri":"` + string(uri.File(p.Abs("tests/a.json"))) + `"}`},
		{ide.Command{Title: "Generate types", Name: ide.CommandGenerateTypes, Dir: true}, `{"dir":` + dump2(p.Dir) + `}`},
		{ide.Command{Title: ide.PinLabel, Name: ide.CommandPin, File: "plugin.json"}, `{"uri":"` + string(uri.File(p.Abs("plugin.json"))) + `"}`},
	} {
		got := vw.toCommand(c.cmd)
		if got.Title != c.cmd.Title || got.Command != c.cmd.Name || len(got.Arguments) != 1 || string(got.Arguments[0]) != c.want {
			t.Errorf("%+v: sent %s %s %s, want the argument %s", c.cmd, got.Title, got.Command, dump(got.Arguments), c.want)
		}
	}
}

func runToolParams(t testing.TB, args any) *protocol.ExecuteCommandParams {
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return &protocol.ExecuteCommandParams{Command: CommandRunTool, Arguments: []protocol.LSPAny{raw}}
}

func TestRunToolAndInlinePreview(t *testing.T) {
	dir := copyExample(t)
	fr := &fakeRunner{got: make(chan runner.Request, 10), run: func(ctx context.Context, req runner.Request) (*record.Record, error) {
		rec := hobbitRecord(req)
		rec.Fetches = append(rec.Fetches, record.FetchEntry{Method: "GET", URL: "https://evil.example/x", Source: "fixture", Host: "evil.example", Refused: "not-allowed"})
		return rec, nil
	}}
	h := newHarness(t, Options{Runner: fr})
	h.client.settings = json.RawMessage(`{"providers": "real", "timeout": "5s"}`)
	caps := richCaps()
	caps.Window, caps.Workspace = &protocol.WindowClientCapabilities{WorkDoneProgress: new(true)}, &protocol.WorkspaceClientCapabilities{Configuration: new(true)}
	h.initialize(dir, caps)
	h.waitSettings(func(st Settings) bool { return st.Providers == "real" })
	manifest := filepath.Join(dir, "plugin.json")
	page := filepath.Join(dir, "code", "lookup-book.ts")
	h.open(manifest)
	h.open(page)
	h.waitChecked(dir)

	// before a run: the lens offers to run
	lenses, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}})
	if err != nil || len(lenses) != 1 || lenses[0].Command.Title != "▶ Run lookupBook" || lenses[0].Command.Command != CommandRunTool {
		t.Fatalf("page lens before run: %v %s", err, dump(lenses))
	}
	if lenses[0].Range.Start.Line != 12 {
		t.Errorf("page lens on line %d, want 12 (the default export)", lenses[0].Range.Start.Line)
	}
	// the lens's own command runs the tool
	res, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: lenses[0].Command.Command, Arguments: lenses[0].Command.Arguments})
	if err != nil {
		t.Fatal(err)
	}
	req := <-fr.got
	// The lens runs the first of inputJsonSchema.examples.
	var input bytes.Buffer
	_ = json.Compact(&input, req.Input)
	if req.Tool != "lookupBook" || req.Providers != "real" || req.Timeout != 5*time.Second || input.String() != `{"isbn":"9780261103344"}` {
		t.Errorf("request: tool %q providers %q timeout %v input %s", req.Tool, req.Providers, req.Timeout, req.Input)
	}
	var rec record.Record
	if err := json.Unmarshal(res, &rec); err != nil || !rec.OK || rec.Claim != "fn.lookupBook:1" {
		t.Fatalf("record %s: %v", res, err)
	}
	h.client.mu.Lock()
	prog := strings.Join(h.client.progress, ",")
	h.client.mu.Unlock()
	if prog != "begin,report,end" {
		t.Errorf("progress %q, want begin,report,end", prog)
	}

	// the refused fetch became diagnostics on the page and the manifest, with the add-domain fix
	pd := h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-refused-at-run") })
	if !strings.Contains(dump(pd.Diagnostics[0].Message), "evil.example") {
		t.Errorf("message %s", dump(pd.Diagnostics[0].Message))
	}
	md := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-refused-at-run") })
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Range: pd.Diagnostics[0].Range})
	if err != nil || len(acts) == 0 {
		t.Fatalf("no fix for the learnt diagnostic: %v", err)
	}
	ca := acts[0].(*protocol.CodeAction)
	if ca.Title != `Add "evil.example" to capabilities.fetch` {
		t.Errorf("fix title %q", ca.Title)
	}
	_ = md

	// after the run: lens, inlay hint and hover show the outcome
	want := "✓ Title: The Hobbit · 12 ms · 2 fetches (1 refused)"
	lenses, _ = h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}})
	// Three function tools, then the two native names of nativeTools.
	if len(lenses) != 5 || !strings.HasPrefix(lenses[0].Command.Title, want) || lenses[3].Command.Title != "▶ Run tg.sendMessage" || lenses[4].Command.Title != "▶ Run tg.readChat" {
		t.Errorf("manifest lenses after run: %s", dump(lenses))
	}
	hints, _ := h.server.InlayHint(h.ctx, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Range: protocol.Range{End: protocol.Position{Line: 100}}})
	if len(hints) != 1 || hints[0].Label.(protocol.String) != protocol.String(want) || hints[0].Position.Line != 12 {
		t.Errorf("inlay hints: %s", dump(hints))
	}
	hv, err := h.server.Hover(h.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Position: protocol.Position{Line: 12, Character: 3}}})
	if err != nil || hv == nil {
		t.Fatalf("hover: %v", err)
	}
	text := hv.Contents.(*protocol.MarkupContent).Value
	for _, w := range []string{"**Title**: The Hobbit", "| GET | https://api.openlibrary.org/isbn/9780261103344.json | 200 | fixture |", "refused: not-allowed"} {
		if !strings.Contains(text, w) {
			t.Errorf("hover lacks %q:\n%s", w, text)
		}
	}

	// fixing the manifest removes the learnt diagnostic
	fixed := applyTextEdits(t, mustRead(t, manifest), editsFor(t, ca.Edit, manifest))
	h.change(manifest, 2, fixed)
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

func TestRunToolErrors(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	for _, c := range []struct {
		args any
		code jsonrpc2.Code
	}{
		{map[string]any{"dir": string(uri.File(dir)), "tool": "lookupBook"}, jsonrpc2.InternalError}, // no sandbox in this server
		{map[string]any{"dir": string(uri.File(dir)), "tool": "nope"}, jsonrpc2.InvalidParams},
		{map[string]any{"dir": string(uri.File(dir))}, jsonrpc2.InvalidParams},
		{"just a string", jsonrpc2.InvalidParams},
	} {
		_, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, c.args))
		if rpcCode(err) != c.code {
			t.Errorf("%v: %v, want code %d", c.args, err, c.code)
		}
	}
}

func TestRunToolCancel(t *testing.T) {
	dir := copyExample(t)
	started := make(chan struct{}, 2)
	fr := &fakeRunner{run: func(ctx context.Context, req runner.Request) (*record.Record, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	h := newHarness(t, Options{Runner: fr})
	h.initialize(dir, protocol.ClientCapabilities{})
	// $/cancelRequest: the jsonrpc2 client sends it when the call's context ends
	ctx, cancel := context.WithCancel(h.ctx)
	errc := make(chan error, 1)
	go func() {
		var res json.RawMessage
		errc <- protocol.Call(ctx, h.conn, "workspace/executeCommand", runToolParams(t, map[string]any{"dir": string(uri.File(dir)), "tool": "lookupBook"}), &res)
	}()
	<-started
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("cancelled run returned no error")
	}
	// the progress cancel button
	p := runToolParams(t, map[string]any{"dir": string(uri.File(dir)), "tool": "lookupBook"})
	p.WorkDoneToken = protocol.String("tok-1")
	go func() {
		_, err := h.server.ExecuteCommand(h.ctx, p)
		errc <- err
	}()
	<-started
	_ = h.server.WorkDoneProgressCancel(h.ctx, &protocol.WorkDoneProgressCancelParams{Token: protocol.String("tok-1")})
	select {
	case err := <-errc:
		if rpcCode(err) != protocol.CodeRequestCancelled {
			t.Fatalf("cancel by progress token: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run not cancelled")
	}
}

func TestPanicInHandlerIsReportedAndSurvived(t *testing.T) {
	dir := copyExample(t)
	fr := &fakeRunner{run: func(ctx context.Context, req runner.Request) (*record.Record, error) { panic("boom in the sandbox") }}
	h := newHarness(t, Options{Runner: fr})
	h.initialize(dir, protocol.ClientCapabilities{})
	_, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": string(uri.File(dir)), "tool": "lookupBook"}))
	if rpcCode(err) != jsonrpc2.InternalError || !strings.Contains(err.Error(), "boom in the sandbox") {
		t.Fatalf("panic answered with %v", err)
	}
	h.client.mu.Lock()
	logs := strings.Join(h.client.logs, "\n")
	h.client.mu.Unlock()
	if !strings.Contains(logs, "boom in the sandbox") {
		t.Errorf("panic not reported via window/logMessage: %q", logs)
	}
	manifest := filepath.Join(dir, "plugin.json")
	h.openText(manifest, "{")
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "manifest-syntax") })
}

func TestSettings(t *testing.T) {
	for _, c := range []struct {
		in, err string
		want    Settings
	}{
		{`null`, "", defaultSettings()},
		{`{"builtins": ["x.y"], "providers": "real", "timeout": "2s", "debounceMs": 0}`, "", Settings{Builtins: []string{"x.y"}, Providers: "real", Timeout: 2 * time.Second, DebounceMs: new(0)}},
		{`{"pluginLsp": {"timeout": 1500}}`, "", Settings{Providers: "fake", Timeout: 1500 * time.Millisecond}},
		{`{"providers": "network", "timeout": "soon"}`, `pluginLsp.providers must be "fake" or "real", not "network"; pluginLsp.timeout "soon" is not a duration like "30s"`, defaultSettings()},
		{`[1]`, "settings must be an object", defaultSettings()},
	} {
		got, err := parseSettings([]byte(c.in))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.in, err, c.err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", c.in, err)
		}
		if dump2(got) != dump2(c.want) {
			t.Errorf("%s: got %s, want %s", c.in, dump2(got), dump2(c.want))
		}
	}
}

func dump2(v any) string { b, _ := json.Marshal(v); return string(b) }

// A run's lens and inlay hint stand for the text the run read: after the
// manifest, the tool's page or the fixtures change, they say the result is
// from before ("⟳ Run again (plugin.json changed since: ✗ …)"); the text
// put back as it was, they are current again.
func TestLensStaleAfterChange(t *testing.T) {
	dir := copyExample(t)
	fr := &fakeRunner{got: make(chan runner.Request, 10), run: func(ctx context.Context, req runner.Request) (*record.Record, error) {
		rec := hobbitRecord(req)
		rec.OK, rec.Result = false, nil
		rec.Error = &record.RunError{Name: "Error", Message: "fetch refused: host evil.example is not in capabilities.fetch"}
		rec.Fetches = append(rec.Fetches, record.FetchEntry{Method: "GET", URL: "https://evil.example/x", Host: "evil.example", Refused: "not-allowed"})
		return rec, nil
	}}
	h := newHarness(t, Options{Runner: fr})
	caps := richCaps()
	caps.Workspace = &protocol.WorkspaceClientCapabilities{CodeLens: &protocol.CodeLensWorkspaceClientCapabilities{RefreshSupport: new(true)}}
	h.initialize(dir, caps)
	manifest := filepath.Join(dir, "plugin.json")
	page := filepath.Join(dir, "code", "lookup-book.ts")
	fixtures := filepath.Join(dir, "fixtures.json")
	// The client is asked for lenses again when a check changes which runs
	// are stale (the page's lens after an edit of plugin.json).
	waitLensRefreshes := func(n int, why string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			h.client.mu.Lock()
			got := h.client.lensRefreshes
			h.client.mu.Unlock()
			if got >= n {
				return
			}
			select {
			case <-h.client.changed:
			case <-time.After(50 * time.Millisecond):
			case <-deadline:
				t.Fatalf("%s: %d codeLens refreshes, want %d", why, got, n)
			}
		}
	}
	h.open(manifest)
	h.open(page)
	h.open(fixtures)
	h.waitChecked(dir)
	lens := func() string {
		t.Helper()
		ls, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}})
		if err != nil || len(ls) != 1 {
			t.Fatalf("page lenses: %v %s", err, dump(ls))
		}
		return ls[0].Command.Title
	}
	hint := func() string {
		t.Helper()
		hs, err := h.server.InlayHint(h.ctx, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Range: protocol.Range{End: protocol.Position{Line: 100}}})
		if err != nil || len(hs) != 1 {
			t.Fatalf("inlay hints: %v %s", err, dump(hs))
		}
		return string(hs[0].Label.(protocol.String))
	}
	if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, runToolArgs{URI: string(uri.File(page)), Tool: "lookupBook"})); err != nil {
		t.Fatal(err)
	}
	<-fr.got
	waitLensRefreshes(1, "after the run")
	fresh := "✗ Error: fetch refused: host evil.example is not in capabilit… · 12 ms · 2 fetches (1 refused)"
	if got := lens(); got != fresh+" · ▶ Run again" {
		t.Fatalf("lens after the run: %q", got)
	}
	if got := hint(); got != fresh {
		t.Fatalf("hint after the run: %q", got)
	}

	texts := map[string]string{manifest: mustRead(t, manifest), page: mustRead(t, page), fixtures: mustRead(t, fixtures)}
	version, refreshes := int32(1), 1
	for _, c := range []struct {
		path, rel, edit string
	}{
		{manifest, "plugin.json", strings.Replace(texts[manifest], `"api.openlibrary.org"`, `"api.openlibrary.org", "evil.example"`, 1)},
		{page, "code/lookup-book.ts", texts[page] + "\n// edited\n"},
		{fixtures, "fixtures.json", strings.Replace(texts[fixtures], "{", "{ ", 1)},
	} {
		if c.edit == texts[c.path] {
			t.Fatalf("%s: the edit changes nothing", c.rel)
		}
		version++
		h.change(c.path, version, c.edit)
		refreshes++
		waitLensRefreshes(refreshes, c.rel+" changed")
		if got, want := lens(), "⟳ Run again ("+c.rel+" changed since: "+fresh+")"; got != want {
			t.Errorf("%s changed: lens %q, want %q", c.rel, got, want)
		}
		if got, want := hint(), "⟳ "+c.rel+" changed since: "+fresh; got != want {
			t.Errorf("%s changed: hint %q, want %q", c.rel, got, want)
		}
		version++
		h.change(c.path, version, texts[c.path])
		refreshes++
		waitLensRefreshes(refreshes, c.rel+" put back")
		if got := lens(); got != fresh+" · ▶ Run again" {
			t.Errorf("%s put back: lens %q, want the run's outcome again", c.rel, got)
		}
	}
}
