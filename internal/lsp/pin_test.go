package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Widen a domain after pinning: snapshot-widened appears at the new entry,
// the quick fix is plugin.pin; without confirmation (the test client
// cannot answer showMessageRequest) nothing is written, with it the
// snapshot is re-pinned and the diagnostic clears.
func TestPinCommandClearsWidened(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Version: "9.9.9", Review: func(p *checker.Plugin) (any, error) {
		return map[string]any{"plugin": "books"}, nil
	}})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	arg := func(confirm bool) []protocol.LSPAny {
		raw, _ := json.Marshal(map[string]any{"uri": string(uri.File(manifest)), "confirm": confirm})
		return []protocol.LSPAny{raw}
	}
	if _, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandPin, Arguments: arg(true)}); err != nil {
		t.Fatal(err)
	}
	lockPath := filepath.Join(dir, "plugin.lock.json")
	if lock := mustRead(t, lockPath); !strings.Contains(lock, `"writtenBy": "plugin-lsp 9.9.9"`) {
		t.Fatalf("lock %s", lock)
	}
	widened := strings.Replace(mustRead(t, manifest), `"api.openlibrary.org",`, `"api.openlibrary.org", "api.evil-cdn.example",`, 1)
	if err := os.WriteFile(manifest, []byte(widened), 0o644); err != nil {
		t.Fatal(err)
	}
	h.openText(manifest, widened)
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "snapshot-widened") })
	var d protocol.Diagnostic
	for _, x := range p.Diagnostics {
		if x.Code != nil && strings.Contains(dump(x.Code), "snapshot-widened") {
			d = x
		}
	}
	f := checker.NewFile("plugin.json", []byte(widened))
	if got := widened[encUTF16.fromPosition(f, d.Range.Start):encUTF16.fromPosition(f, d.Range.End)]; got != `"api.evil-cdn.example"` || !strings.Contains(dump(d.Message), "pinned: api.openlibrary.org, covers.openlibrary.org") {
		t.Fatalf("snapshot-widened at %q: %s", got, d.Message)
	}
	acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
	if err != nil {
		t.Fatal(err)
	}
	var fix *protocol.CodeAction
	for _, a := range acts {
		if ca, ok := a.(*protocol.CodeAction); ok && ca.Title == "Re-pin the capability snapshot" {
			fix = ca
		}
	}
	if fix == nil || fix.Command.Command != CommandPin {
		t.Fatalf("no re-pin quick fix: %s", dump(acts))
	}
	// The quick fix as the client runs it: the card first; not confirmed.
	before := mustRead(t, lockPath)
	out, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: fix.Command.Command, Arguments: fix.Command.Arguments})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"pinned":false`) || !strings.Contains(string(out), `"card":{"plugin":"books"}`) || mustRead(t, lockPath) != before {
		t.Fatalf("pinned without confirmation: %s", out)
	}
	out, err = h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandPin, Arguments: arg(true)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"pinned":true`) || !strings.Contains(string(out), `+ api.evil-cdn.example (fetch, tools lookupBook, searchBooks, saveFavourite)`) {
		t.Fatalf("pin: %s", out)
	}
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return !hasCode(p, "snapshot-widened") })
}
