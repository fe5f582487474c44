package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The issue-15 scenario: a page fetches an undeclared host; the fix edits
// plugin.json only. Whatever the client's diagnostics mode, the page's
// fetch-undeclared-domain must go without the page being edited.
func undeclaredPageSetup(t *testing.T, dir string) (page, manifest, fixed string) {
	t.Helper()
	page = filepath.Join(dir, "code", "lookup-book.ts")
	if err := os.WriteFile(page, []byte(strings.Replace(mustRead(t, page), "https://api.openlibrary.org", "https://books.example.org", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest = filepath.Join(dir, "plugin.json")
	m := mustRead(t, manifest)
	fixed = strings.Replace(m, `"fetch": [`, `"fetch": ["books.example.org", `, 1)
	if fixed == m {
		t.Fatal("the example's manifest has no fetch list to extend")
	}
	return page, manifest, fixed
}

// A client that declares pull diagnostics but cannot be asked to refresh
// (Neovim 0.10) is pushed to, and not offered pull.
func TestPullClientWithoutRefreshIsPushedTo(t *testing.T) {
	dir := copyExample(t)
	page, manifest, fixed := undeclaredPageSetup(t, dir)
	h := newHarness(t, Options{})
	res := h.initialize(dir, protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{Diagnostic: &protocol.DiagnosticClientCapabilities{}}})
	if res.Capabilities.DiagnosticProvider != nil {
		t.Error("diagnosticProvider offered to a client that cannot be asked to refresh")
	}
	h.open(page)
	h.open(manifest)
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-undeclared-domain") })
	h.change(manifest, 2, fixed)
	h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return !hasCode(p, "fetch-undeclared-domain") })
}

// A pull client with refresh support is asked to pull again after a check
// caused by another file, and its pull then has the new result.
func TestPullClientIsAskedToRefresh(t *testing.T) {
	dir := copyExample(t)
	page, manifest, fixed := undeclaredPageSetup(t, dir)
	h := newHarness(t, Options{})
	h.initialize(dir, pullCaps())
	h.open(page)
	h.open(manifest)
	h.waitChecked(dir)
	pull := func() []string {
		rep, err := h.server.Diagnostic(h.ctx, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}})
		if err != nil {
			t.Fatal(err)
		}
		full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
		if !ok {
			t.Fatalf("want a full report, got %s", dump(rep))
		}
		return codes(&protocol.PublishDiagnosticsParams{Diagnostics: full.Items})
	}
	if !strings.Contains(strings.Join(pull(), " "), "fetch-undeclared-domain") {
		t.Fatal("the pulled report lacks fetch-undeclared-domain")
	}
	h.client.mu.Lock()
	before := h.client.refreshes
	h.client.mu.Unlock()
	h.change(manifest, 2, fixed)
	h.waitChecked(dir)
	deadline := time.Now().Add(10 * time.Second)
	for {
		h.client.mu.Lock()
		n := h.client.refreshes
		h.client.mu.Unlock()
		if n > before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no workspace/diagnostic/refresh after the manifest changed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := pull(); strings.Contains(strings.Join(got, " "), "fetch-undeclared-domain") {
		t.Fatalf("after the refresh the pull still has %v", got)
	}
}
