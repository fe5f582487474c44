package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/runner"
)

// shutdown cancels a tool run in flight: the runner sees its context end
// and the run's request is answered at once, not at the run's deadline.
func TestShutdownCancelsRunsInFlight(t *testing.T) {
	dir := copyExample(t)
	started := make(chan struct{}, 1)
	stopped := make(chan error, 1)
	fr := &fakeRunner{run: func(ctx context.Context, req runner.Request) (*runner.Record, error) {
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
// edit, and the user is told once.
func TestLargeManifestIsCheckedOnSave(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{MaxLiveManifest: 512})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	base := mustRead(t, manifest)
	h.openText(manifest, base)
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return true })
	h.waitChecked(dir)
	gen := func() uint64 {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		return h.srv.plugins[dir].gen
	}
	before := gen()
	bad := strings.Replace(base, `"version": "1.2.0"`, `"version": "1.2"`, 1)
	h.change(manifest, 2, bad)
	h.change(manifest, 3, bad+" ")
	h.sync()
	if gen() != before {
		t.Fatal("an edit of a manifest over the limit started a check")
	}
	h.client.mu.Lock()
	shown := append([]string(nil), h.client.shown...)
	h.client.mu.Unlock()
	for len(shown) == 0 {
		<-h.client.changed
		h.client.mu.Lock()
		shown = append([]string(nil), h.client.shown...)
		h.client.mu.Unlock()
	}
	if len(shown) != 1 || !strings.Contains(shown[0], "checked when a file is opened or saved") {
		t.Errorf("notices %q, want one saying when the plugin is checked", shown)
	}
	if err := h.server.DidSave(h.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}}); err != nil {
		t.Fatal(err)
	}
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { v, _ := p.Version.Get(); return v == 3 })
	if len(p.Diagnostics) == 0 {
		t.Error("the save's check lost the edits made before it")
	}
	h.sync()
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	if len(h.client.shown) != 1 {
		t.Errorf("told %d times, want once", len(h.client.shown))
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
