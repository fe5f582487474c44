package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// posOf returns the LSP position of the first occurrence of needle in text
// (plus delta bytes).
func posOf(t testing.TB, text, needle string, delta int) protocol.Position {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in text", needle)
	}
	return encUTF16.toPosition(checker.NewFile("", []byte(text)), i+delta)
}

func (h *harness) hover(path string, pos protocol.Position) string {
	h.t.Helper()
	hv, err := h.server.Hover(h.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}, Position: pos}})
	if err != nil {
		h.t.Fatal(err)
	}
	if hv == nil {
		return ""
	}
	return hv.Contents.(*protocol.MarkupContent).Value
}

// TestHover checks the glue: Markdown for a client that takes it, the
// range of what the hover is about, nil where there is nothing. What the
// hovers say is checked by the marker tests of package ide.
func TestHover(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, richCaps())
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, manifest)
	h.openText(manifest, text)
	hv, err := h.server.Hover(h.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: posOf(t, text, `"covers.openlibrary.org"`, 2)}})
	if err != nil || hv == nil {
		t.Fatalf("hover: %v", err)
	}
	mc := hv.Contents.(*protocol.MarkupContent)
	start, end := posOf(t, text, `"covers.openlibrary.org"`, 0), posOf(t, text, `"covers.openlibrary.org"`, len(`"covers.openlibrary.org"`))
	if mc.Kind != protocol.MarkupKindMarkdown || !strings.HasPrefix(mc.Value, "**fetch domain** `covers.openlibrary.org`") || hv.Range == nil || hv.Range.Start != start || hv.Range.End != end {
		t.Errorf("hover %s, want Markdown on %v-%v", dump(hv), start, end)
	}
	page := filepath.Join(dir, "code", "lookup-book.ts")
	ptext := mustRead(t, page)
	h.openText(page, ptext)
	if got := h.hover(page, posOf(t, ptext, "http.fetch", 6)); !strings.Contains(got, "**host method** `http.fetch`") {
		t.Errorf("hover on http.fetch: %q", got)
	}
	if got := h.hover(manifest, protocol.Position{}); got != "" {
		t.Errorf("hover on the opening brace: %q", got)
	}
}

func (h *harness) complete(path string, pos protocol.Position) []string {
	h.t.Helper()
	res, err := h.server.Completion(h.ctx, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}, Position: pos}})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, it := range res.(*protocol.CompletionList).Items {
		out = append(out, it.Label)
	}
	return out
}

// TestCompletion checks the glue: a candidate replacing the string being
// typed is a TextEdit of its content, one between elements is inserted as
// a JSON string, kinds and host-method docs are set. Which candidates are
// offered is checked by the marker tests of package ide.
func TestCompletion(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	base := mustRead(t, manifest)
	items := func(text, cursorAfter string) []protocol.CompletionItem {
		t.Helper()
		h.openText(manifest, text)
		res, err := h.server.Completion(h.ctx, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: posOf(t, text, cursorAfter, len(cursorAfter))}})
		if err != nil {
			t.Fatal(err)
		}
		return res.(*protocol.CompletionList).Items
	}
	text := strings.Replace(base, `"collections.put"]`, `"collections.put", "col"]`, 1)
	got := items(text, `"collections.put", "co`)
	if len(got) != 2 || got[0].Label != "collections.delete" || got[0].Kind != protocol.CompletionItemKindFunction ||
		dump(got[0].TextEdit) != dump(&protocol.TextEdit{Range: protocol.Range{Start: posOf(t, text, `"col"]`, 1), End: posOf(t, text, `"col"]`, 4)}, NewText: "collections.delete"}) ||
		got[0].Documentation == nil || got[0].Documentation.(*protocol.MarkupContent).Kind != protocol.MarkupKindPlainText {
		t.Errorf("replacing completion %s", dump(got))
	}
	text = strings.Replace(base, `"collections.put"]`, `"collections.put", ]`, 1)
	got = items(text, `"collections.put", `)
	if len(got) != 2 || got[1].Label != "collections.query" || dump(got[1].TextEdit) != "null" || dump(got[1].InsertText) != dump(`"collections.query"`) {
		t.Errorf("inserting completion %s", dump(got))
	}
	text = strings.Replace(base, `"page": "code/save-favourite"`, `"page": "code/"`, 1)
	if got = items(text, `"page": "code/`); len(got) != 3 || got[0].Kind != protocol.CompletionItemKindFile {
		t.Errorf("page completion %s", dump(got))
	}
}

func TestDefinition(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, manifest)
	h.openText(manifest, text)
	def := func(needle string) string {
		res, err := h.server.Definition(h.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: posOf(t, text, needle, 3)}})
		if err != nil {
			t.Fatal(err)
		}
		locs, ok := res.(protocol.LocationSlice)
		if !ok || len(locs) != 1 {
			return dump(res)
		}
		rel, _ := relTo(dir, pathOf(locs[0].URI))
		return rel + ":" + dump(locs[0].Range)
	}
	for needle, want := range map[string]string{
		`"code/lookup-book"`:   `code/lookup-book.ts:{"start":{"line":12,"character":0},"end":{"line":12,"character":14}}`,
		`"native/telegram.js"`: `native/telegram.js:{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}`,
		`"tg.readChat"`:        `native/telegram.js:{"start":{"line":51,"character":2},"end":{"line":51,"character":15}}`,
		`"books"`:              `[]`,
	} {
		if got := def(needle); got != want {
			t.Errorf("definition of %s: %s, want %s", needle, got, want)
		}
	}
}

func TestDocumentSymbols(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	res, err := h.server.DocumentSymbol(h.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	var walk func(prefix string, ss []protocol.DocumentSymbol)
	walk = func(prefix string, ss []protocol.DocumentSymbol) {
		for _, s := range ss {
			if s.SelectionRange.Start.Line < s.Range.Start.Line || s.SelectionRange.End.Line > s.Range.End.Line {
				t.Errorf("%s: selection outside range", s.Name)
			}
			lines = append(lines, prefix+s.Name)
			walk(prefix+"  ", s.Children)
		}
	}
	walk("", res.(protocol.DocumentSymbolSlice))
	want := `tools
  lookupBook
  searchBooks
  saveFavourite
nativeTools
  native/telegram.js
    tg.sendMessage
    tg.readChat
capabilities
  host
    http.fetch
    collections.get
    collections.put
  fetch
    api.openlibrary.org
    covers.openlibrary.org
  credentials
    openlibrary_key`
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("symbols:\n%s\nwant:\n%s", got, want)
	}
}

// TestMalformedManifestTypedCharByChar types the example manifest one
// character at a time (every prefix is a broken document) and asks for
// everything at each step: the server must answer every request and end
// with the clean result.
func TestMalformedManifestTypedCharByChar(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, manifest)
	h.openText(manifest, "")
	step := 1
	if testing.Short() {
		step = 7
	}
	u := protocol.TextDocumentIdentifier{URI: uri.File(manifest)}
	for i := 1; i <= len(text); i += step {
		prefix := text[:i]
		h.change(manifest, int32(i+1), prefix)
		end := encUTF16.toPosition(checker.NewFile("", []byte(prefix)), len(prefix))
		tdp := protocol.TextDocumentPositionParams{TextDocument: u, Position: end}
		if _, err := h.server.Hover(h.ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Fatalf("hover at %d: %v", i, err)
		}
		if _, err := h.server.Completion(h.ctx, &protocol.CompletionParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Fatalf("completion at %d: %v", i, err)
		}
		if i%5 == 0 {
			if _, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: u}); err != nil {
				t.Fatalf("codeLens at %d: %v", i, err)
			}
			if _, err := h.server.DocumentSymbol(h.ctx, &protocol.DocumentSymbolParams{TextDocument: u}); err != nil {
				t.Fatalf("symbols at %d: %v", i, err)
			}
			if _, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: u, Range: protocol.Range{End: end}}); err != nil {
				t.Fatalf("codeAction at %d: %v", i, err)
			}
			if _, err := h.server.Definition(h.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdp}); err != nil {
				t.Fatalf("definition at %d: %v", i, err)
			}
		}
	}
	h.change(manifest, int32(len(text)+10), text)
	// unchanged lists are not republished: read the final state by pull
	rep, err := h.server.Diagnostic(h.ctx, &protocol.DocumentDiagnosticParams{TextDocument: u})
	if err != nil {
		t.Fatal(err)
	}
	if full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport); !ok || len(full.Items) != 0 {
		t.Fatalf("the finished manifest is clean, got %s", dump(rep))
	}
	h.waitChecked(dir)
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	for _, l := range h.client.logs {
		if strings.Contains(l, "internal error") {
			t.Errorf("server reported: %s", l)
		}
	}
}

// TestHostileInput: a 10 MB page, a 10 MB manifest of garbage, invalid
// UTF-8 and NUL bytes; every request is answered and the server lives.
func TestHostileInput(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, richCaps())
	manifest := filepath.Join(dir, "plugin.json")
	page := filepath.Join(dir, "code", "lookup-book.ts")
	big := strings.Repeat("const x = http.fetch(\"https://a.example/\" + 1); // ünïcødé 😀\n", 10<<20/64)
	h.openText(page, big)
	garbage := "{\"name\": \"\xff\xfe\x00\", \"tools\": [" + strings.Repeat("{\"name\": \"t\", \"page\": \"code/lookup-book\"},", 10<<20/40)
	h.openText(manifest, garbage)
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "manifest-syntax") })
	for _, path := range []string{manifest, page} {
		u := protocol.TextDocumentIdentifier{URI: uri.File(path)}
		tdp := protocol.TextDocumentPositionParams{TextDocument: u, Position: protocol.Position{Line: 0, Character: 12}}
		if _, err := h.server.Hover(h.ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Fatalf("hover: %v", err)
		}
		if _, err := h.server.Completion(h.ctx, &protocol.CompletionParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Fatalf("completion: %v", err)
		}
		if _, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: u}); err != nil {
			t.Fatalf("codeLens: %v", err)
		}
		if _, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: u, Range: protocol.Range{End: protocol.Position{Line: 3}}}); err != nil {
			t.Fatalf("codeAction: %v", err)
		}
	}
	// a host call deep inside the big page
	got := h.hover(page, protocol.Position{Line: 100000, Character: 14})
	if !strings.Contains(got, "`http.fetch`") {
		t.Errorf("hover deep in the big page: %q", got)
	}
	h.change(manifest, 2, "\x00\x01\x02")
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { v, _ := p.Version.Get(); return v == 2 })
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	for _, l := range h.client.logs {
		if strings.Contains(l, "internal error") {
			t.Errorf("server reported: %s", l)
		}
	}
}

// TestIncrementalChangesApplied: a client that sends ranges anyway (UTF-16
// columns, an emoji before the edit) still gets the right text checked.
func TestIncrementalChangesApplied(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	text := strings.Replace(mustRead(t, manifest), `"Find a book by ISBN"`, `"Find a book 😀 by ISBN"`, 1)
	h.openText(manifest, text)
	// replace `ISBN"` after the emoji with `ISBN",,` (a syntax error), by range
	at := posOf(t, text, `by ISBN"`, len(`by ISBN"`))
	err := h.server.DidChange(h.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{
			Range: protocol.Range{Start: at, End: at}, Text: ",,",
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "manifest-syntax") })
	if d := p.Diagnostics[0]; d.Range.Start.Line != at.Line || d.Range.Start.Character != at.Character+1 {
		t.Errorf("syntax error at %s, want line %d col %d", dump(d.Range), at.Line, at.Character+1)
	}
}
