package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// copyPlugin copies testdata/plugins/<name> into a temp dir.
func copyPlugin(t testing.TB, name string) string {
	t.Helper()
	return copyTree(t, filepath.Join("..", "..", "testdata", "plugins", name), filepath.Join(t.TempDir(), name))
}

// copyTree copies the directory src to dst.
func copyTree(t testing.TB, src, dst string) string {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// preferred returns the quick fix marked isPreferred, failing when there
// is not exactly one.
func preferred(t testing.TB, acts []protocol.CommandOrCodeAction) *protocol.CodeAction {
	t.Helper()
	var out *protocol.CodeAction
	for _, a := range acts {
		if ca, ok := a.(*protocol.CodeAction); ok && ca.IsPreferred != nil && *ca.IsPreferred {
			if out != nil {
				t.Fatalf("two preferred actions: %s", dump(acts))
			}
			out = ca
		}
	}
	if out == nil {
		t.Fatalf("no preferred action in %s", dump(acts))
	}
	return out
}

// The typo scenario in the editor: the page's fetch-undeclared-domain
// offers the rename as its preferred fix; applying it clears every
// related diagnostic (the page, the tool, the unused entry, the
// credential).
func TestTypoRenameClearsRelated(t *testing.T) {
	dir := copyPlugin(t, "fix-domain-typo")
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	page := filepath.Join(dir, "code", "forecast.ts")
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	h.open(page)
	mp := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool {
		return hasCode(p, "fetch-unused-domain") && hasCode(p, "credential-unscoped") && hasCode(p, "fetch-undeclared-domain")
	})
	pp := h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-undeclared-domain") })
	d := pp.Diagnostics[0]
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
	if err != nil {
		t.Fatal(err)
	}
	ca := preferred(t, acts)
	if !strings.HasPrefix(ca.Title, `Rename "wether.example.com" to "weather.example.com"`) {
		t.Errorf("preferred fix %q, want the rename", ca.Title)
	}
	// The same rename is preferred on each manifest diagnostic.
	for _, md := range mp.Diagnostics {
		acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Range: md.Range,
			Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{md}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := preferred(t, acts).Title; got != ca.Title {
			t.Errorf("%v: preferred %q, want %q", md.Code, got, ca.Title)
		}
	}
	fixed := applyTextEdits(t, mustRead(t, manifest), editsFor(t, ca.Edit, manifest))
	h.change(manifest, 2, fixed)
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// Renaming a shadowing native name is one WorkspaceEdit over plugin.json
// and the module's tools map; applied, the name is still exported.
func TestNativeRenameEditsModule(t *testing.T) {
	dir := copyPlugin(t, "names-shadow-builtin")
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	module := filepath.Join(dir, "native", "search.js")
	h.open(manifest)
	mp := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "name-shadows-builtin") })
	var d protocol.Diagnostic
	for _, x := range mp.Diagnostics {
		if x.Code == protocol.String("name-shadows-builtin") {
			d = x
			break
		}
	}
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
	if err != nil {
		t.Fatal(err)
	}
	ca := preferred(t, acts)
	me, ee := editsFor(t, ca.Edit, manifest), editsFor(t, ca.Edit, module)
	if len(me) != 1 || len(ee) != 1 {
		t.Fatalf("want one edit in plugin.json and one in native/search.js: %s", dump(ca.Edit))
	}
	newManifest := applyTextEdits(t, mustRead(t, manifest), me)
	newModule := applyTextEdits(t, mustRead(t, module), ee)
	if !strings.Contains(newManifest, `"search-plus.search"`) || !strings.Contains(newModule, `"search-plus.search": search`) {
		t.Fatalf("rename not applied:\n%s\n%s", newManifest, newModule)
	}
	h.openText(module, newModule)
	h.change(manifest, 2, newManifest)
	after := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool {
		n := 0
		for _, x := range p.Diagnostics {
			if x.Code == protocol.String("name-shadows-builtin") {
				n++
			}
		}
		return n == 2
	})
	if hasCode(after, "native-name-not-exported") {
		t.Errorf("the renamed name is not exported: %s", dump(after.Diagnostics))
	}
}

// Renaming a function tool that a workspace built-in shadows is one
// WorkspaceEdit over plugin.json and every test file whose cases call it
// (the file's "tool" and a case's own); a broken test file is left alone.
func TestToolRenameEditsTests(t *testing.T) {
	dir := copyPlugin(t, "names-shadow-fn-tests")
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	_ = h.server.DidChangeConfiguration(h.ctx, &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`{"pluginLsp": {"builtins": ["fn.define"], "debounceMs": 0}}`)})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	mp := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "name-shadows-builtin") })
	d := mp.Diagnostics[0]
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
	if err != nil {
		t.Fatal(err)
	}
	ca := preferred(t, acts)
	define, both := filepath.Join(dir, "tests", "define.json"), filepath.Join(dir, "tests", "both.json")
	me, de, be := editsFor(t, ca.Edit, manifest), editsFor(t, ca.Edit, define), editsFor(t, ca.Edit, both)
	if len(me) != 1 || len(de) != 1 || len(be) != 1 {
		t.Fatalf("want one edit in plugin.json, tests/define.json and tests/both.json: %s", dump(ca.Edit))
	}
	if strings.Contains(dump(ca.Edit), "broken.json") {
		t.Errorf("the broken test file is edited: %s", dump(ca.Edit))
	}
	newDefine, newBoth := applyTextEdits(t, mustRead(t, define), de), applyTextEdits(t, mustRead(t, both), be)
	if !strings.Contains(newDefine, `"tool": "define2"`) || !strings.Contains(newBoth, `"tool": "define2"`) || !strings.Contains(newBoth, `"tool": "related"`) {
		t.Errorf("test files after the rename:\n%s\n%s", newDefine, newBoth)
	}
	h.change(manifest, 2, applyTextEdits(t, mustRead(t, manifest), me))
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// plugin.runTool on a native tool says which lane it is in and where it
// is previewed, instead of "no such tool".
func TestRunToolNativeLane(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	_, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": string(uri.File(dir)), "tool": "tg.sendMessage"}))
	if rpcCode(err) != jsonrpc2.InvalidParams || err == nil ||
		!strings.Contains(err.Error(), `"tg.sendMessage" is a native tool (native/telegram.js) in the full-trust lane`) ||
		!strings.Contains(err.Error(), "plugin.reviewCard") {
		t.Errorf("runTool on a native tool: %v", err)
	}
}

// source.fixAll is check --fix on the editor's text: the typo renamed,
// in one edit; unsaved buffers are what it reads.
func TestSourceFixAll(t *testing.T) {
	dir := copyPlugin(t, "fix-domain-typo")
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-unused-domain") })
	ask := func() []protocol.CommandOrCodeAction {
		acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
			Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindSourceFixAll}}})
		if err != nil {
			t.Fatal(err)
		}
		return acts
	}
	acts := ask()
	if len(acts) != 1 {
		t.Fatalf("want one fix-all action, got %s", dump(acts))
	}
	ca := acts[0].(*protocol.CodeAction)
	if *ca.Kind != protocol.CodeActionKindSourceFixAll || ca.Title != "Apply the preferred fix (plugin-lsp check --fix)" {
		t.Errorf("action %s", dump(ca))
	}
	fixed := applyTextEdits(t, mustRead(t, manifest), editsFor(t, ca.Edit, manifest))
	if !strings.Contains(fixed, `"fetch": ["weather.example.com"]`) {
		t.Fatalf("not renamed:\n%s", fixed)
	}
	h.change(manifest, 2, fixed)
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	if acts := ask(); len(acts) != 0 {
		t.Errorf("nothing left to fix, got %s", dump(acts))
	}
}
