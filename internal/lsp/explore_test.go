package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/explore"
)

// TestExploredDiagnosticsFollowStatic: the static diagnostics are
// published first, while exploration still runs; the explored finding
// follows; the next edit replaces it (static again, nothing appended) and
// cancels the exploration it superseded.
func TestExploredDiagnosticsFollowStatic(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [{"name": "t", "description": "a tool", "page": "code/t.ts"}],
  "capabilities": {"host": ["http.fetch"], "fetch": ["api.example.com"]}}`
	page := "const h = [\"org\", \"example\", \"hidden\"].reverse().join(\".\");\nexport default async function t() { await http.fetch(\"https://\" + h + \"/\"); }\n"
	if err := os.MkdirAll(filepath.Join(dir, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	pagePath := filepath.Join(dir, "code", "t.ts")
	for p, s := range map[string]string{filepath.Join(dir, "plugin.json"): manifest, pagePath: page} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	release := make(chan struct{})
	var calls, cancelled atomic.Int32
	entered := make(chan int32, 16) // each exploration, as it starts
	explore := func(ctx context.Context, p *checker.Plugin) map[string]*checker.Exploration {
		n := calls.Add(1)
		entered <- n
		if n == 1 {
			select {
			case <-release:
			case <-ctx.Done():
				return nil
			}
		} else {
			<-ctx.Done() // the second waits until superseded
			cancelled.Add(1)
			return nil
		}
		f, _ := p.ReadFile("code/t.ts")
		if f == nil || !strings.Contains(string(f.Text), "hidden") {
			return nil
		}
		return map[string]*checker.Exploration{"t": {Runs: 1, Complete: true, Fetches: []checker.ExploredFetch{{
			Site: checker.Site{File: "code/t.ts", Line: 2, Col: 43}, URL: "https://hidden.example.org/", Host: "hidden.example.org", Input: `{"q":"x"}`}}}}
	}
	h := newHarness(t, Options{Explore: explore})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.openText(pagePath, page)
	has := func(p *protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if strings.Contains(dump(d.Message), "hidden.example.org is not in capabilities.fetch") && strings.Contains(dump(d.Message), `reached with input {\"q\":\"x\"}`) {
				return true
			}
		}
		return false
	}
	static := h.waitDiags(pagePath, func(p *protocol.PublishDiagnosticsParams) bool { return true })
	if has(static) {
		t.Fatal("the explored finding came with the static ones, before exploration finished")
	}
	close(release)
	h.waitDiags(pagePath, has)
	// an edit: the static result replaces the explored one
	h.change(pagePath, 2, page+"// edited\n")
	h.waitDiags(pagePath, func(p *protocol.PublishDiagnosticsParams) bool { return !has(p) })
	// another edit supersedes the second exploration: it is cancelled.
	// The edit waits until that exploration has started: the static
	// publish comes before it, and an edit before it would cancel it
	// before it is called (then the third would be the one that waits).
	for n := int32(0); n < 2; {
		select {
		case n = <-entered:
		case <-time.After(10 * time.Second):
			t.Fatal("the edit's exploration did not start")
		}
	}
	h.change(pagePath, 3, page+"// edited twice\n")
	deadline := time.After(10 * time.Second)
	for cancelled.Load() == 0 {
		select {
		case <-deadline:
			t.Fatal("the superseded exploration was not cancelled")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestExploredDiagnosticAfterSupersededExplorations: with the real
// explorer, every edit lands while the previous edit's exploration runs
// (the edit follows its static check at once) and cancels it; after
// forty of them the last edit's explored finding still arrives. A
// cancelled exploration used to keep the run slot it had just taken
// (explore.Explorer.tool), so after as many cancellations as cores every
// exploration waited out its budget with no run and was cached empty.
func TestExploredDiagnosticAfterSupersededExplorations(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	x, err := explore.New(explore.Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(x.Close)
	dir := t.TempDir()
	// enums: a plan of many runs, so that an edit finds the exploration
	// waiting for a run slot
	manifest := `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [{"name": "t", "description": "a tool", "page": "code/t.ts",
    "inputJsonSchema": {"type": "object", "properties": {"r": {"enum": ["a", "b", "c", "d", "e", "f", "g", "h"]}, "n": {"type": "integer", "minimum": 0, "maximum": 9}, "b": {"type": "boolean"}}}}],
  "capabilities": {"host": ["http.fetch"], "fetch": ["api.example.com"]}}`
	// a host in a Map registry, fetched through an injected function:
	// static analysis resolves neither
	page := func(i int) string {
		return fmt.Sprintf(`const REG = new Map<string, string>();
REG.set("k", ["hidden", "example", "org"].join("."));
async function get(f: typeof http.fetch, u: string) { return f(u); }
export default async function t(input: { r?: string }) {
  await get(http.fetch, "https://" + REG.get("k") + "/v%d");
  return %d;
}
`, i, i)
	}
	if err := os.MkdirAll(filepath.Join(dir, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	pagePath := filepath.Join(dir, "code", "t.ts")
	for p, s := range map[string]string{filepath.Join(dir, "plugin.json"): manifest, pagePath: page(0)} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, Options{Explore: func(ctx context.Context, p *checker.Plugin) map[string]*checker.Exploration { return x.Plugin(ctx, p) }})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.openText(pagePath, page(0))
	explored := func(v int32) func(p *protocol.PublishDiagnosticsParams) bool {
		return func(p *protocol.PublishDiagnosticsParams) bool {
			if got, _ := p.Version.Get(); got != v {
				return false
			}
			for _, d := range p.Diagnostics {
				m := dump(d.Message)
				if strings.Contains(m, "hidden.example.org is not in capabilities.fetch") && strings.Contains(m, "reached with input") {
					return true
				}
			}
			return false
		}
	}
	h.waitDiags(pagePath, explored(1))
	v := int32(1)
	for i := 1; i <= 40; i++ {
		h.waitChecked(dir) // the static check of v is out: its exploration runs
		v++
		h.change(pagePath, v, page(i))
	}
	h.waitDiags(pagePath, explored(v))
}

// TestExploredResultsKeptWhileInputsUnchanged: a check whose inputs did
// not change (a file closed with its text on disk, a watched-file event
// for a file written with the same bytes) keeps what exploration found:
// the quick fix of an explored diagnostic is there at once, and the
// publish that follows still holds it. Exploration of those checks may be
// slow (here it never ends): the code action does not wait for it. Real
// VS Code closed plugin.json's preview tab between the explored publish
// and Ctrl+., and the fix was gone until the new exploration came.
func TestExploredResultsKeptWhileInputsUnchanged(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [{"name": "t", "description": "a tool", "page": "code/t.ts"}],
  "capabilities": {"host": ["http.fetch"], "fetch": ["api.example.com"]}}`
	page := "const h = [\"org\", \"example\", \"hidden\"].reverse().join(\".\");\nexport default async function t() { await http.fetch(\"https://\" + h + \"/\"); }\n"
	if err := os.MkdirAll(filepath.Join(dir, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	pagePath, manifestPath := filepath.Join(dir, "code", "t.ts"), filepath.Join(dir, "plugin.json")
	for p, s := range map[string]string{manifestPath: manifest, pagePath: page} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var calls atomic.Int32
	explore := func(ctx context.Context, p *checker.Plugin) map[string]*checker.Exploration {
		if calls.Add(1) > 1 {
			<-ctx.Done() // every later exploration is slow
			return nil
		}
		return map[string]*checker.Exploration{"t": {Runs: 1, Complete: true, Fetches: []checker.ExploredFetch{{
			Site: checker.Site{File: "code/t.ts", Line: 2, Col: 43}, URL: "https://hidden.example.org/", Host: "hidden.example.org", Input: `{"q":"x"}`}}}}
	}
	h := newHarness(t, Options{Explore: explore})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.openText(manifestPath, manifest)
	h.openText(pagePath, page)
	has := func(p *protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if strings.Contains(dump(d.Message), "hidden.example.org is not in capabilities.fetch") {
				return true
			}
		}
		return false
	}
	explored := h.waitDiags(pagePath, has)
	var d protocol.Diagnostic
	for _, x := range explored.Diagnostics {
		if strings.Contains(dump(x.Message), "hidden.example.org") {
			d = x
		}
	}
	fixAt := func(when string) {
		t.Helper()
		acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(pagePath)}, Range: d.Range,
			Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acts {
			if ca, ok := a.(*protocol.CodeAction); ok && strings.HasPrefix(ca.Title, `Add "hidden.example.org" to capabilities.fetch`) {
				return
			}
		}
		t.Errorf("%s: no quick fix for the explored diagnostic: %s", when, dump(acts))
	}
	fixAt("after the explored publish")

	// plugin.json closed, its text the disk's
	if err := h.server.DidClose(h.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifestPath)}}); err != nil {
		t.Fatal(err)
	}
	fixAt("after plugin.json was closed")
	h.waitChecked(dir)
	if !has(h.waitDiags(pagePath, func(*protocol.PublishDiagnosticsParams) bool { return true })) {
		t.Error("the check after the close published the static diagnostics only")
	}
	// the page rewritten on disk with the same bytes
	if err := os.WriteFile(pagePath, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.server.DidChangeWatchedFiles(h.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(pagePath), Type: protocol.FileChangeTypeChanged}}}); err != nil {
		t.Fatal(err)
	}
	fixAt("after a watched-file event")
	// an edit changes the inputs: the explored finding goes (replaced,
	// not kept) until its own exploration
	h.change(pagePath, 2, page+"// edited\n")
	h.waitDiags(pagePath, func(p *protocol.PublishDiagnosticsParams) bool { v, _ := p.Version.Get(); return v == 2 && !has(p) })
}
