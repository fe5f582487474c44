package lsp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

func TestReviewCardCommand(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Review: func(p *checker.Plugin) (any, error) {
		name, _ := checker.Str(p.Manifest.Name)
		return map[string]any{"plugin": name, "tools": len(p.Manifest.Tools)}, nil
	}})
	res := h.initialize(dir, protocol.ClientCapabilities{})
	if got := res.Capabilities.ExecuteCommandProvider.Commands; strings.Join(got, ",") != "plugin.runTool,plugin.pin,plugin.runTests,plugin.acceptSnapshot,plugin.generateTypes,plugin.nativeTool,plugin.reviewCard" {
		t.Fatalf("commands %v", got)
	}
	manifest := filepath.Join(dir, "plugin.json")
	// the card follows the buffer
	h.openText(manifest, strings.Replace(mustRead(t, manifest), `"name": "books"`, `"name": "novels"`, 1))
	raw, _ := json.Marshal(map[string]any{"uri": string(uri.File(manifest))})
	out, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandReviewCard, Arguments: []protocol.LSPAny{raw}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"plugin":"novels","tools":3}` {
		t.Fatalf("card %s", out)
	}
}

func TestSettingsChangeRechecks(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	// the workspace adds a built-in name that a native tool declares
	_ = h.server.DidChangeConfiguration(h.ctx, &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`{"pluginLsp": {"builtins": ["tg.readChat"], "debounceMs": 0}}`)})
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "name-shadows-builtin") })
	if !strings.Contains(dump(p.Diagnostics), "tg.readChat") {
		t.Errorf("diagnostics %s", dump(p.Diagnostics))
	}
	h.waitSettings(func(st Settings) bool { return st.DebounceMs != nil && *st.DebounceMs == 0 })
}

func TestUnusedDomainIsTaggedAndLinked(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, richCaps())
	manifest := filepath.Join(dir, "plugin.json")
	h.openText(manifest, strings.Replace(mustRead(t, manifest), `"api.openlibrary.org",`, `"api.openlibrary.org", "unused.example.org",`, 1))
	p := h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-unused-domain") })
	d := p.Diagnostics[0]
	if tags := d.Tags.Slice(); len(tags) != 1 || tags[0] != protocol.DiagnosticTagUnnecessary {
		t.Errorf("tags %v, want [Unnecessary]", tags)
	}
	if d.CodeDescription.Href != "" {
		t.Errorf("no docs URL configured, yet codeDescription %q", d.CodeDescription.Href)
	}
	if raw := dump(d); strings.Contains(raw, "codeDescription") {
		t.Errorf("codeDescription sent empty: %s", raw)
	}
}

func TestCreatedPageOnDiskClearsTheDiagnostic(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.openText(manifest, strings.Replace(mustRead(t, manifest), `"page": "code/save-favourite"`, `"page": "code/new-tool"`, 1))
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "tool-page-missing") })
	newPage := filepath.Join(dir, "code", "new-tool.ts")
	if err := os.WriteFile(newPage, []byte(mustRead(t, filepath.Join(dir, "code", "save-favourite.ts"))), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = h.server.DidChangeWatchedFiles(h.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(newPage), Type: protocol.FileChangeTypeCreated}}})
	h.waitDiags(manifest, func(p *protocol.PublishDiagnosticsParams) bool { return !hasCode(p, "tool-page-missing") })
}

// TestRPCErrorCodes: an ide failure reaches the client with its message as
// written (a "%" in it included) and the code of its kind.
func TestRPCErrorCodes(t *testing.T) {
	for _, c := range []struct {
		kind ide.FailureKind
		code jsonrpc2.Code
	}{
		{ide.FailInvalid, jsonrpc2.InvalidParams},
		{ide.FailDeclined, jsonrpc2.InvalidRequest},
		{ide.FailInternal, jsonrpc2.InternalError},
	} {
		const msg = "100% sure: plugin.pin: nothing was pinned"
		var e *jsonrpc2.Error
		if err := rpcError(&ide.Failure{Kind: c.kind, Message: msg}); !errors.As(err, &e) || e.Code != c.code || e.Message != msg {
			t.Errorf("kind %d: %#v, want code %d and %q", c.kind, err, c.code, msg)
		}
	}
}
