package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// shutdown cancels a tool run in flight: the runner sees its context end
// and the run's request is answered at once, not at the run's deadline.
func TestShutdownCancelsRunsInFlight(t *testing.T) {
	dir := copyExample(t)
	started := make(chan struct{}, 1)
	stopped := make(chan error, 1)
	fr := &fakeRunner{run: func(ctx context.Context, req runner.Request) (*record.Record, error) {
		started <- struct{}{}
		<-ctx.Done() // a busy loop that only cancellation ends
		stopped <- ctx.Err()
		return nil, ctx.Err()
	}}
	h := newHarness(t, Options{Runner: fr})
	h.initialize(dir, protocol.ClientCapabilities{})
	errc := make(chan error, 1)
	go func() {
		_, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": string(uri.File(dir)), "tool": "lookupBook"}))
		errc <- err
	}()
	<-started
	if err := h.server.Shutdown(h.ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-stopped:
		if err == nil {
			t.Error("the run's context ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("shutdown did not cancel the run")
	}
	if err := <-errc; err == nil {
		t.Error("the cancelled run was answered with a record")
	}
	// After shutdown a new run is refused.
	if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": string(uri.File(dir)), "tool": "lookupBook"})); err == nil {
		t.Error("a run after shutdown was accepted")
	}
}

// Documents of other schemes (untitled:, git:) are not the server's: their
// changes are ignored without a word, keystroke after keystroke.
func TestUntitledDocumentsMakeNoNoise(t *testing.T) {
	dir := copyExample(t)
	log := &syncBuffer{}
	h := newHarness(t, Options{Log: log})
	h.initialize(dir, protocol.ClientCapabilities{})
	u := uri.URI("untitled:Untitled-1")
	if err := h.server.DidOpen(h.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "json", Version: 1, Text: "{"}}); err != nil {
		t.Fatal(err)
	}
	for v := int32(2); v < 20; v++ {
		err := h.server.DidChange(h.ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: strings.Repeat("{", int(v))}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	_ = h.server.DidClose(h.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	h.sync()
	h.client.mu.Lock()
	logs := append([]string(nil), h.client.logs...)
	h.client.mu.Unlock()
	if len(logs) > 0 || log.String() != "" {
		t.Errorf("untitled: edits were logged: client %q, server %q", logs, log.String())
	}
}

// Completion in an entry being typed (the document does not parse yet)
// knows the entries further down the array.
func TestCompletionSeesTheWholeArray(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	page := filepath.Join(dir, "code", "lookup-book.ts")
	// one more domain seen in a page, declared nowhere: the only offer
	h.openText(page, mustRead(t, page)+"\nconst X = \"https://images.example.org/x\";\n")
	base := mustRead(t, manifest)
	const from = "\"fetch\": [\n      \"api.openlibrary.org\","
	for _, c := range []struct{ name, to, cursor string }{
		{"unterminated, empty", "\"fetch\": [\n      \"\n      \"api.openlibrary.org\",", "\"fetch\": [\n      \""},
		{"unterminated, typed", "\"fetch\": [\n      \"ap\n      \"api.openlibrary.org\",", "\"fetch\": [\n      \"ap"},
		{"closed, no comma", "\"fetch\": [\n      \"\"\n      \"api.openlibrary.org\",", "\"fetch\": [\n      \""},
		{"nothing typed, no comma", "\"fetch\": [\n      \n      \"api.openlibrary.org\",", "\"fetch\": [\n      "},
		{"parses", "\"fetch\": [\n      \"\",\n      \"api.openlibrary.org\",", "\"fetch\": [\n      \""},
	} {
		text := strings.Replace(base, from, c.to, 1)
		if text == base {
			t.Fatal("the example's fetch list changed")
		}
		h.openText(manifest, text)
		if got := strings.Join(h.complete(manifest, posOf(t, text, c.cursor, len(c.cursor))), "|"); got != "images.example.org" {
			t.Errorf("%s: offers %q, want only images.example.org", c.name, got)
		}
	}
}

// A manifest over the live limit is checked on open and on save, not per
// edit, without the schema, and one diagnostic at 1:1 of plugin.json says
// so; the rules that are not heavy still report.
func TestLargeManifestIsCheckedOnSave(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{MaxLiveManifest: 512})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	base := mustRead(t, manifest)
	// A schema error (version "1.2") and an unused fetch domain.
	bad := strings.Replace(base, `"version": "1.2.0"`, `"version": "1.2"`, 1)
	bad = strings.Replace(bad, `"fetch": [`, `"fetch": ["unused.example.org", `, 1)
	h.openText(manifest, base)
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return true })
	notices := 0
	for _, d := range p.Diagnostics {
		if diagCode(d) == LargeManifestCode {
			notices++
			if d.Range.Start != (protocol.Position{}) || !strings.Contains(dump(d.Message), "over the 512 bytes") || !strings.Contains(dump(d.Message), "plugin-lsp check") {
				t.Errorf("notice at %v: %q", d.Range.Start, d.Message)
			}
		}
	}
	if notices != 1 {
		t.Fatalf("%d %s diagnostics, want one: %s", notices, LargeManifestCode, dump(p))
	}
	h.waitChecked(dir)
	gen := func() uint64 {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		return h.srv.plugins[dir].gen
	}
	before := gen()
	h.change(manifest, 2, bad)
	h.change(manifest, 3, bad+" ")
	h.sync()
	if gen() != before {
		t.Fatal("an edit of a manifest over the limit started a check")
	}
	if err := h.server.DidSave(h.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}}); err != nil {
		t.Fatal(err)
	}
	p = h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { v, _ := p.Version.Get(); return v == 3 })
	codes := map[string]int{}
	for _, d := range p.Diagnostics {
		codes[diagCode(d)]++
	}
	if codes["fetch-unused-domain"] == 0 {
		t.Errorf("the save's check lost the edits made before it: %v", codes)
	}
	if codes["manifest-schema"] != 0 || codes[LargeManifestCode] != 1 {
		t.Errorf("over the limit: %v, want no manifest-schema and one %s", codes, LargeManifestCode)
	}
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	if len(h.client.shown) != 0 {
		t.Errorf("messages shown %q: the diagnostic is the notice", h.client.shown)
	}
}

// While a plugin with a manifest over the limit (5 MB, 30,000 tools) is
// being checked, the editor is answered: didChange is applied, and hover
// and completion answer from the last check instead of waiting for this
// one (held here until they have answered).
func TestLargeManifestKeepsTheEditorAnswered(t *testing.T) {
	dir := writeManyTools(t, 30000)
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(t, manifest)
	if len(text) <= MaxLiveManifestBytes {
		t.Fatalf("the manifest is %d bytes, not over the limit", len(text))
	}
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.openText(manifest, text)
	first := h.waitDiagsWithin(2*time.Minute, manifest, func(p *protocol.PublishDiagnosticsParams) bool { return true })
	if len(first.Diagnostics) != 1 || diagCode(first.Diagnostics[0]) != LargeManifestCode {
		t.Fatalf("first diagnostics: %s", dump(first))
	}
	h.waitChecked(dir)

	held, release := make(chan string, 1), make(chan struct{})
	h.srv.mu.Lock()
	h.srv.checking = func(d string) {
		held <- d
		<-release
	}
	h.srv.mu.Unlock()
	edited := strings.Replace(text, `"fetch": [`, `"fetch": ["unused.example.org", `, 1)
	h.change(manifest, 2, edited)
	if err := h.server.DidSave(h.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}}); err != nil {
		t.Fatal(err)
	}
	<-held // the save's check is running, and waits
	h.change(manifest, 3, edited+" ")
	h.sync() // the didChange was handled during the check
	hover := h.hover(manifest, posOf(t, text, `"name": "tool7"`, 10))
	if !strings.Contains(hover, "fn.tool7") {
		t.Errorf("hover during the check: %q", hover)
	}
	if got := h.complete(manifest, posOf(t, text, `"http.fetch"`, 1)); len(got) == 0 {
		t.Error("no completion during the check")
	}
	h.client.mu.Lock()
	p := h.client.diags[string(uri.File(manifest))]
	h.client.mu.Unlock()
	if hasCode(p, "fetch-unused-domain") {
		t.Fatal("the held check published")
	}
	h.srv.mu.Lock()
	h.srv.checking = nil
	h.srv.mu.Unlock()
	close(release)
	if err := h.server.DidSave(h.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}}); err != nil {
		t.Fatal(err)
	}
	p = h.waitDiagsWithin(2*time.Minute, manifest, func(p *protocol.PublishDiagnosticsParams) bool { v, _ := p.Version.Get(); return v == 3 })
	if !hasCode(p, "fetch-unused-domain") || !hasCode(p, LargeManifestCode) {
		t.Errorf("after the check: %v", codes(p))
	}
}

// Opening a file unchanged from the disk starts no second check of the
// plugin (a 25 MB manifest would be checked twice at startup), and a push
// client still gets the opened file's diagnostics, with its version.
func TestOpeningAnUnchangedFileReusesTheCheck(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.waitChecked(dir)
	gen := func() uint64 {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		return h.srv.plugins[dir].gen
	}
	before := gen()
	manifest := filepath.Join(dir, "plugin.json")
	page := filepath.Join(dir, "code", "lookup-book.ts")
	h.open(manifest)
	h.open(page)
	for _, p := range []string{manifest, page} {
		got := h.waitDiags(p, func(*protocol.PublishDiagnosticsParams) bool { return true })
		if v, _ := got.Version.Get(); v != 1 || len(got.Diagnostics) != 0 {
			t.Errorf("%s: published %s, want the clean example at version 1", p, dump(got))
		}
	}
	if gen() != before {
		t.Errorf("opening unchanged files started a check (generation %d → %d)", before, gen())
	}
	// An open file edited is checked as usual, and hover sees the buffer.
	h.change(page, 2, strings.Replace(mustRead(t, page), "https://api.openlibrary.org", "https://books.example.org", 1))
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-undeclared-domain") })
}

// diagCode is a diagnostic's code ("" when none).
func diagCode(d protocol.Diagnostic) string {
	s, _ := d.Code.(protocol.String)
	return string(s)
}
