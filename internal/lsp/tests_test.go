package lsp

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
)

// searchRunner answers searchBooks with a result that differs from the
// example's stored snapshot (one cover status changed) and the other
// tools as the example's tests expect.
func searchRunner(cover int) *fakeRunner {
	return &fakeRunner{run: func(ctx context.Context, req runner.Request) (*record.Record, error) {
		if req.Tool == "searchBooks" {
			res := `{"type":"table","columns":["Title","Author","Cover"],"rows":[["The Hobbit","J.R.R. Tolkien",200],["The Annotated Hobbit","J.R.R. Tolkien, Douglas A. Anderson",` + itoa(cover) + `]]}`
			return &record.Record{OK: true, Result: json.RawMessage(res), Logs: []record.LogEntry{}, Fetches: []record.FetchEntry{
				{Method: "GET", URL: "https://api.openlibrary.org/search.json?q=hobbit", Status: 200, Credentials: []string{"openlibrary_key"}},
				{Method: "GET", URL: "https://covers.openlibrary.org/b/id/14627509-S.json", Status: 200, Credentials: []string{}},
				{Method: "GET", URL: "https://covers.openlibrary.org/b/id/8231856-S.json", Status: 404, Credentials: []string{}},
			}}, nil
		}
		return hobbitRecord(req), nil
	}}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func lensTitles(ls []protocol.CodeLens) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Command.Title)
	}
	return out
}

func TestTestLensesDiagnosticsAndAcceptSnapshot(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Runner: searchRunner(500)})
	h.initialize(dir, protocol.ClientCapabilities{})
	file := filepath.Join(dir, "tests", "search-books.json")
	h.open(file)
	h.waitChecked(dir)

	lenses, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(file)}})
	if err != nil || strings.Join(lensTitles(lenses), "|") != "▶ Run all 4 tests|▶ Run test|▶ Run test|▶ Run test|▶ Run test" {
		t.Fatalf("lenses before a run: %v %q", err, lensTitles(lenses))
	}
	if lenses[1].Range.Start.Line != 5 || lenses[1].Command.Command != CommandRunTests {
		t.Errorf("case lens at line %d (%s), want 5 (the snapshot case's name)", lenses[1].Range.Start.Line, lenses[1].Command.Command)
	}
	// The snapshot case's own lens runs it: it fails against the stored snapshot.
	res, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: lenses[1].Command.Command, Arguments: lenses[1].Command.Arguments})
	if err != nil {
		t.Fatal(err)
	}
	var results []testcase.Result
	if err := json.Unmarshal(res, &results); err != nil || len(results) != 1 || results[0].Status != testcase.Fail || results[0].Failures[0].Path != "result.rows[1][2]" {
		t.Fatalf("results %s: %v", res, err)
	}
	pd := h.waitDiags(file, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	msg := dump(pd.Diagnostics[0].Message)
	if pd.Diagnostics[0].Range.Start.Line != 5 || !strings.Contains(msg, "test searchBooks/hobbit: titles, authors and cover status failed") ||
		!strings.Contains(msg, `result.rows[1][2]: differs\n    expected: 404\n    actual:   500`) {
		t.Errorf("diagnostic %s", dump(pd.Diagnostics[0]))
	}
	lenses, _ = h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(file)}})
	if got := lensTitles(lenses); got[0] != "✓ 0 passed · ✗ 1 failed · ▶ Run all" || got[1] != "✗ failed (1 difference) · ▶ Run again" {
		t.Errorf("lenses after the run: %q", got)
	}

	// Quick fix: accept the new result; the snapshot file follows and the case passes.
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(file)}, Range: pd.Diagnostics[0].Range,
		Context: protocol.CodeActionContext{Diagnostics: pd.Diagnostics}})
	if err != nil {
		t.Fatal(err)
	}
	var accept *protocol.CodeAction
	for _, a := range acts {
		if ca, ok := a.(*protocol.CodeAction); ok && ca.Title == "Accept the new result as snapshot" {
			accept = ca
		}
	}
	if accept == nil {
		t.Fatalf("no accept action in %s", dump(acts))
	}
	if _, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: accept.Command.Command, Arguments: accept.Command.Arguments}); err != nil {
		t.Fatal(err)
	}
	snap := mustRead(t, filepath.Join(dir, "tests", "__snapshots__", "search-books.snap.json"))
	if !strings.Contains(snap, "500") || strings.Contains(snap, "404") {
		t.Errorf("snapshot not updated:\n%s", snap)
	}
	h.waitDiags(file, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })

	// Run all: every case of the file, results in order.
	res, err = h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: lenses[0].Command.Command, Arguments: lenses[0].Command.Arguments})
	if err != nil || json.Unmarshal(res, &results) != nil || len(results) != 4 {
		t.Fatalf("run all: %v %s", err, res)
	}

	lenses, _ = h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(file)}})
	// (The fake runner answers only the snapshot case as the file expects.)
	if got := lensTitles(lenses); got[0] != "✓ 1 passed · ✗ 3 failed · ▶ Run all" {
		t.Errorf("lenses after run all: %q", got)
	}
	// Editing a case drops its outcome until it runs again; the others keep theirs.
	text := mustRead(t, file)
	h.change(file, 2, strings.Replace(text, `"input": { "q": "hobbit", "limit": 1 }`, `"input": { "q": "hobbit", "limit": 2 }`, 1))
	h.waitChecked(dir)
	lenses, _ = h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(file)}})
	if got := lensTitles(lenses); got[0] != "✓ 1 passed · ✗ 2 failed · ▶ Run all" || got[2] != "▶ Run test" || !strings.HasPrefix(got[1], "✓ passed") {
		t.Errorf("lenses after editing a case: %q", got)
	}

	// A broken test file: positioned errors, no lenses.
	h.change(file, 3, `{"tool": "searchBooks", "cases": [{"name": "x", "reslt": 1}]}`)
	pd = h.waitDiags(file, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if m := dump(pd.Diagnostics[0].Message); !strings.Contains(m, `unknown key \"reslt\" (did you mean \"result\"?)`) || pd.Diagnostics[0].Range.Start.Character != 48 {
		t.Errorf("broken file diagnostic %s", dump(pd.Diagnostics[0]))
	}
}

func TestTypesGeneratedAndKeptFresh(t *testing.T) {
	dir := copyExample(t)
	typesPath := filepath.Join(dir, ".plugin", "types.d.ts")
	os.Remove(typesPath)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	h.waitChecked(dir)
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindSource}}})
	if err != nil {
		t.Fatal(err)
	}
	var gen *protocol.CodeAction
	for _, a := range acts {
		if ca, ok := a.(*protocol.CodeAction); ok && strings.HasPrefix(ca.Title, "Generate types") {
			gen = ca
		}
	}
	if gen == nil {
		t.Fatalf("no Generate types action: %s", dump(acts))
	}
	out, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: gen.Command.Command, Arguments: gen.Command.Arguments})
	if err != nil || string(out) != `[".plugin/types.d.ts"]` {
		t.Fatalf("generate: %s %v", out, err)
	}
	if !strings.Contains(mustRead(t, typesPath), "lookupBook: {\n      isbn: string;") {
		t.Fatalf("types:\n%s", mustRead(t, typesPath))
	}
	// The manifest gains a field: an edit leaves the types alone (the
	// server never writes on its own), the save brings them up to date.
	before := mustRead(t, typesPath)
	text := strings.Replace(mustRead(t, manifest), `"properties": { "isbn": { "type": "string" } }`, `"properties": { "isbn": { "type": "string" }, "edition": { "type": "integer" } }`, 1)
	h.change(manifest, 2, text)
	h.waitChecked(dir)
	if got := mustRead(t, typesPath); got != before {
		t.Errorf("types rewritten on an edit, before any save:\n%s", got)
	}
	// Until then the file is stale, and said so (types-stale, on it).
	stale := func(p *protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 1 && p.Diagnostics[0].Code == protocol.String("types-stale")
	}
	h.waitDiags(typesPath, stale)
	h.save(manifest, text)
	if got := mustRead(t, typesPath); !strings.Contains(got, "edition?: number;") {
		t.Errorf("types not refreshed on save:\n%s", got)
	}
	// The save's write is followed by a check of its own: the note goes
	// without a file watcher's event (this client sends none).
	h.waitDiags(typesPath, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	// A manifest that does not parse leaves them alone, saved or not.
	h.change(manifest, 3, text[:len(text)/2])
	h.save(manifest, text[:len(text)/2])
	if got := mustRead(t, typesPath); !strings.Contains(got, "edition?: number;") {
		t.Errorf("types rewritten from a broken manifest:\n%s", got)
	}
	// Once the file exists the action is gone.
	acts, _ = h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindSource}}})
	for _, a := range acts {
		if ca, ok := a.(*protocol.CodeAction); ok && strings.HasPrefix(ca.Title, "Generate types") {
			t.Error("Generate types offered although the file exists")
		}
	}
}

// cannedProvider answers every request with one JSON body (the "network"
// of a fake run).
type cannedProvider struct{ body string }

func (p cannedProvider) RoundTrip(ctx context.Context, req *broker.Request, limits broker.Capability) (*broker.Response, broker.Source, error) {
	return &broker.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(p.body), URL: req.URL}, broker.SourceNetwork, nil
}

// plugin.runTool with "record": the server hands the runner a recorder and
// appends what it recorded to fixtures.json; without real providers the
// option is refused.
func TestRunToolRecord(t *testing.T) {
	dir := copyExample(t)
	fr := &fakeRunner{run: func(ctx context.Context, req runner.Request) (*record.Record, error) {
		if req.Recorder == nil {
			return hobbitRecord(req), nil
		}
		// What the real runner does: the broker's provider is the recorder.
		p := req.Recorder.Wrap(cannedProvider{body: `{"title":"The Lord of the Rings","key":"dev-ol-4f9c2e7a1b"}`})
		req.Recorder.SetRedactor(func(s string) string {
			return strings.ReplaceAll(s, "dev-ol-4f9c2e7a1b", "••••(openlibrary_key)")
		})
		if _, _, err := p.RoundTrip(ctx, &broker.Request{Method: "GET", URL: "https://api.openlibrary.org/isbn/9780261102385.json"}, broker.Capability{}); err != nil {
			return nil, err
		}
		return hobbitRecord(req), nil
	}}
	h := newHarness(t, Options{Runner: fr})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.waitChecked(dir)
	args := map[string]any{"dir": dir, "tool": "lookupBook", "input": map[string]string{"isbn": "9780261102385"}, "record": true}
	if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, args)); err == nil || !strings.Contains(err.Error(), `set pluginLsp.providers to \"real\"`) && !strings.Contains(err.Error(), "pluginLsp.providers") {
		t.Fatalf("record with fake providers: %v", err)
	}
	h.srv.applySettings([]byte(`{"providers": "real"}`))
	if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, args)); err != nil {
		t.Fatal(err)
	}
	fx := mustRead(t, filepath.Join(dir, "fixtures.json"))
	if !strings.Contains(fx, `"url": "https://api.openlibrary.org/isbn/9780261102385.json"`) || !strings.Contains(fx, `"title": "The Lord of the Rings"`) ||
		!strings.Contains(fx, `"key": "••••(openlibrary_key)"`) || strings.Contains(fx, `"key": "dev-ol-4f9c2e7a1b"`) {
		t.Errorf("fixtures.json after recording:\n%s", fx)
	}
	// The fixtures the run wrote are no change since it: its lens is current.
	lenses, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(filepath.Join(dir, "plugin.json"))}})
	if err != nil || len(lenses) == 0 || !strings.HasPrefix(lenses[0].Command.Title, "✓ ") || strings.Contains(lenses[0].Command.Title, "changed since") {
		t.Errorf("lens after the recording run: %v %s", err, dump(lenses))
	}
}
