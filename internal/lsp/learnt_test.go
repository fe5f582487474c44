package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// TestAllowlistLearntFromRuns uses the real sandbox: a page builds its
// fetch URL at run time (no static rule can know the host), the broker
// refuses it, the refusal becomes a diagnostic with the add-domain fix,
// and after the fix the same run succeeds.
func TestAllowlistLearntFromRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the QuickJS sandbox")
	}
	r, err := runner.New(runner.Config{Spare: -1})
	if err != nil {
		t.Fatalf("runner: %v", err)
	}
	defer r.Close()
	dir := copyExample(t)
	page := filepath.Join(dir, "code", "lookup-book.ts")
	src := `export default async function lookupBook(input: { isbn: string }) {
  const host = ["org", "example", "books"].reverse().join("."); // not followed statically: learnt from the run
  const res = await http.fetch("https://" + host + "/isbn/" + input.isbn + ".json");
  const book = await res.json();
  return { type: "stat", value: book.title, label: "Title" };
}
`
	fixtures := `{"fnFetch": [{"url": "https://books.example.org/isbn/1.json", "body": {"title": "Dune"}}]}`
	if err := os.WriteFile(page, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fixtures.json"), []byte(fixtures), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Options{Runner: r})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	h.open(page)
	run := func() record.Record {
		t.Helper()
		res, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"uri": string(uri.File(page)), "tool": "lookupBook", "input": map[string]any{"isbn": "1"}}))
		if err != nil {
			t.Fatal(err)
		}
		var rec record.Record
		if err := json.Unmarshal(res, &rec); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	rec := run()
	if rec.OK || len(rec.Fetches) != 1 || rec.Fetches[0].Refused != "not-allowed" {
		t.Fatalf("first run should be refused: %+v", rec)
	}
	p := h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-refused-at-run") })
	var d protocol.Diagnostic
	for _, x := range p.Diagnostics {
		if x.Code == protocol.String("fetch-refused-at-run") {
			d = x
		}
	}
	if !strings.Contains(dump(d.Message), "books.example.org") || d.Range.Start.Line != 0 {
		t.Errorf("learnt diagnostic %s", dump(d))
	}
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}, Range: d.Range})
	if err != nil || len(acts) == 0 {
		t.Fatalf("no fix: %v", err)
	}
	fix := acts[0].(*protocol.CodeAction)
	h.change(manifest, 2, applyTextEdits(t, mustRead(t, manifest), editsFor(t, fix.Edit, manifest)))
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return !hasCode(p, "fetch-refused-at-run") })
	rec = run()
	if !rec.OK || string(rec.Result) != `{"type":"stat","value":"Dune","label":"Title"}` {
		t.Fatalf("after the fix: %+v (error %+v)", rec, rec.Error)
	}
	lenses, _ := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}})
	if len(lenses) != 1 || !strings.HasPrefix(lenses[0].Command.Title, "✓ Title: Dune · ") {
		t.Errorf("lens %s", dump(lenses))
	}
}
