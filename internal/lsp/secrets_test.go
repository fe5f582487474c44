package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
)

// The editor shows what check shows: the page of fixtures-secret-in-url
// writes its dev secret into fetch URLs percent-encoded, in base64 and in
// hex; the published diagnostics (page and fixtures.json) and the titles
// of their quick fixes quote those URLs with the secret replaced by its
// marker, and the judge (leakcheck, every encoding decoded) finds no form
// of it. The quick fixes' edits keep the URL as the page writes it: they
// change the files, which already hold it.
func TestDiagnosticsHideEncodedSecrets(t *testing.T) {
	dir := copyPlugin(t, "fixtures-secret-in-url")
	var fx struct{ Secrets map[string]string }
	if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(dir, "fixtures.json"))), &fx); err != nil {
		t.Fatal(err)
	}
	secret, marker := fx.Secrets["api_key"], "••••(api_key)"
	if secret == "" {
		t.Fatal("fixtures.json has no api_key secret")
	}
	h := newHarness(t, Options{})
	h.initialize(dir, richCaps())
	page, fixtures := filepath.Join(dir, "code", "search.ts"), filepath.Join(dir, "fixtures.json")
	src := mustRead(t, page)
	fetches := strings.Count(src, "http.fetch(")
	if fetches < 5 || len(leakcheck.Find([]byte(src), secret)) == 0 || strings.Contains(src, secret) {
		t.Fatalf("the page should hold the secret encoded, never as it is, in 5 fetches (%d)", fetches)
	}
	h.open(page)
	h.open(fixtures)
	count := func(p *protocol.PublishDiagnosticsParams, code string) int {
		n := 0
		for _, c := range codes(p) {
			if c == code {
				n++
			}
		}
		return n
	}
	pp := h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return count(p, "fixture-unmatched") == fetches })
	fp := h.waitDiags(fixtures, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fixture-unused") })
	var titles []string
	for _, p := range []*protocol.PublishDiagnosticsParams{pp, fp} {
		for _, d := range p.Diagnostics {
			acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: p.URI}, Range: d.Range,
				Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range acts {
				if ca, ok := a.(*protocol.CodeAction); ok {
					titles = append(titles, ca.Title)
				}
			}
		}
	}
	shown := dump(pp) + dump(fp) + strings.Join(titles, "\n")
	if found := leakcheck.Find([]byte(shown), secret); len(found) > 0 {
		t.Errorf("the editor shows the secret:\n%s\n%s", strings.Join(found, "\n"), shown)
	}
	// One marker per fixture-unmatched message and per fix title (a
	// fixture for each fetch, the removal of the unused fixture).
	if n := strings.Count(shown, marker); n < 2*fetches+1 {
		t.Errorf("%d markers, want %d and more:\n%s", n, 2*fetches+1, shown)
	}
}
