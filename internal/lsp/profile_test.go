package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// The client-capability matrix: the initialize capabilities of real
// editors (testdata/profiles, one JSON file each) replayed against the
// server, checking that every feature takes the form the client declared
// and that no client is left with stale diagnostics.
type profile struct {
	file      string
	enc       protocol.PositionEncodingKind
	pull      bool // offered diagnosticProvider (pull with refresh)
	hoverMD   bool
	complMD   bool
	related   bool
	codeDesc  bool
	tagUnused bool
	watch     bool // didChangeWatchedFiles registered dynamically
	progress  bool // a run reports $/progress under a token the server creates
}

var profiles = []profile{
	{file: "vscode.json", enc: "utf-16", pull: true, hoverMD: true, complMD: true, related: true, codeDesc: true, tagUnused: true, watch: true, progress: true},
	{file: "neovim-0.7.json", enc: "utf-16", hoverMD: true, complMD: true, related: true, tagUnused: true, progress: true},
	{file: "neovim-0.9.json", enc: "utf-16", hoverMD: true, complMD: true, related: true, tagUnused: true, progress: true},
	{file: "neovim-0.10.json", enc: "utf-8", hoverMD: true, complMD: true, related: true, tagUnused: true, progress: true},
	{file: "eglot.json", enc: "utf-16", tagUnused: true, watch: true},
	{file: "helix.json", enc: "utf-8", hoverMD: true, tagUnused: true, watch: true, progress: true},
}

// registrations counts client/registerCapability requests.
func (c *testClient) registrationCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.registrations
}

func TestClientProfiles(t *testing.T) {
	for _, pr := range profiles {
		t.Run(strings.TrimSuffix(pr.file, ".json"), func(t *testing.T) { testProfile(t, pr) })
	}
}

func testProfile(t *testing.T, pr profile) {
	raw, err := os.ReadFile(filepath.Join("testdata", "profiles", pr.file))
	if err != nil {
		t.Fatal(err)
	}
	var caps protocol.ClientCapabilities
	if err := protocol.Unmarshal(raw, &caps); err != nil {
		t.Fatalf("%s: %v", pr.file, err)
	}
	dir := copyExample(t)
	page := filepath.Join(dir, "code", "lookup-book.ts")
	manifest := filepath.Join(dir, "plugin.json")
	// A page fetching an undeclared host, with characters of 2 and 4
	// UTF-8 bytes (1 and 2 UTF-16 units) before the URL on its line.
	pageText := strings.Replace(mustRead(t, page), `const API = "https://api.openlibrary.org";`, `const API = "https://books.example.org";`, 1)
	pageText = strings.Replace(pageText, "http.fetch(`${API}", "http.fetch(/* é😀 */ `${API}", 1)
	m := mustRead(t, manifest)
	manifestText := strings.Replace(m, `"api.openlibrary.org",`, `"api.openlibrary.org", "unused.example.org",`, 1)
	if manifestText == m || !strings.Contains(pageText, "é😀") {
		t.Fatal("the example changed: the profile fixture no longer applies")
	}

	fr := &fakeRunner{run: func(ctx context.Context, req runner.Request) (*record.Record, error) { return hobbitRecord(req), nil }}
	h := newHarness(t, Options{DocsURL: "https://example.org/rules.md", Runner: fr})
	res := h.initialize(dir, caps)
	if res.Capabilities.PositionEncoding != pr.enc {
		t.Errorf("positionEncoding %q, want %q", res.Capabilities.PositionEncoding, pr.enc)
	}
	if got := res.Capabilities.DiagnosticProvider != nil; got != pr.pull {
		t.Errorf("diagnosticProvider offered: %v, want %v", got, pr.pull)
	}
	h.openText(page, pageText)
	h.openText(manifest, manifestText)
	h.waitChecked(dir)

	// The diagnostics the client sees: pulled for a pull client, pushed
	// otherwise.
	diagsOf := func(path string, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
		t.Helper()
		if !pr.pull {
			return h.waitDiags(path, func(p *protocol.PublishDiagnosticsParams) bool { return ok(p.Diagnostics) }).Diagnostics
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			rep, err := h.server.Diagnostic(h.ctx, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}})
			if err != nil {
				t.Fatal(err)
			}
			full, isFull := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
			if isFull && ok(full.Items) {
				return full.Items
			}
			if time.Now().After(deadline) {
				t.Fatalf("pulled diagnostics of %s never matched: %s", path, dump(rep))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	find := func(ds []protocol.Diagnostic, code string) *protocol.Diagnostic {
		for i := range ds {
			if c, ok := ds[i].Code.(protocol.String); ok && string(c) == code {
				return &ds[i]
			}
		}
		return nil
	}
	has := func(code string) func([]protocol.Diagnostic) bool {
		return func(ds []protocol.Diagnostic) bool { return find(ds, code) != nil }
	}

	// Positions in the negotiated encoding.
	d := find(diagsOf(page, has("fetch-undeclared-domain")), "fetch-undeclared-domain")
	enc := encUTF16
	if pr.enc == "utf-8" {
		enc = encUTF8
	}
	f := checker.NewFile("", []byte(pageText))
	if end := enc.fromPosition(f, d.Range.End); !strings.HasSuffix(pageText[:end], "/* é😀 */ `${API}/isbn/${isbn}.json`)") {
		t.Errorf("diagnostic range %s read in %s ends after %q", dump(d.Range), pr.enc, pageText[max(0, end-20):end])
	}
	// relatedInformation, or the same facts in the message.
	if pr.related != (len(d.RelatedInformation) > 0) {
		t.Errorf("relatedInformation sent: %v, want %v", len(d.RelatedInformation) > 0, pr.related)
	}
	if msg := string(d.Message.(protocol.String)); !pr.related && !strings.Contains(msg, "plugin.json:") {
		t.Errorf("without relatedInformation the message should say where: %q", msg)
	}
	if got := d.CodeDescription.Href != ""; got != pr.codeDesc {
		t.Errorf("codeDescription sent: %v, want %v", got, pr.codeDesc)
	}
	u := find(diagsOf(manifest, has("fetch-unused-domain")), "fetch-unused-domain")
	if got := len(u.Tags.Slice()) > 0; got != pr.tagUnused {
		t.Errorf("tags sent: %v, want %v", got, pr.tagUnused)
	}

	// Hover and completion documentation in the client's format.
	hv, err := h.server.Hover(h.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: enc.toPosition(checker.NewFile("", []byte(manifestText)), strings.Index(manifestText, `"collections.put"`)+3)}})
	if err != nil || hv == nil {
		t.Fatalf("hover: %v %v", hv, err)
	}
	mc := hv.Contents.(*protocol.MarkupContent)
	checkMarkup(t, "hover", mc, pr.hoverMD, "collections.put")
	cr, err := h.server.Completion(h.ctx, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: enc.toPosition(checker.NewFile("", []byte(manifestText)), strings.Index(manifestText, `"collections.put"`)+3)}})
	if err != nil {
		t.Fatal(err)
	}
	items := cr.(*protocol.CompletionList).Items
	documented := 0
	for _, it := range items {
		if doc, ok := it.Documentation.(*protocol.MarkupContent); ok {
			documented++
			checkMarkup(t, "completion "+it.Label, doc, pr.complMD, it.Label)
		}
		if it.InsertTextFormat == protocol.InsertTextFormatSnippet {
			t.Errorf("completion %s is a snippet", it.Label)
		}
	}
	if documented == 0 {
		t.Errorf("no documented host method among the completions: %s", dump(items))
	}

	// Dynamic registration only when declared. The server registers from
	// the initialized notification's goroutine, which may still be on its
	// way on a busy machine: wait for it where it is expected.
	for wait := time.Now().Add(30 * time.Second); pr.watch && h.client.registrationCount() == 0 && time.Now().Before(wait); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := h.client.registrationCount() > 0; got != pr.watch {
		t.Errorf("file watching registered: %v, want %v", got, pr.watch)
	}

	// Progress for a run (no workDoneToken of its own) only when declared.
	if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": string(uri.File(dir)), "tool": "lookupBook"})); err != nil {
		t.Fatal(err)
	}
	h.client.mu.Lock()
	reported := len(h.client.progress) > 0
	h.client.mu.Unlock()
	if reported != pr.progress {
		t.Errorf("run progress reported: %v, want %v", reported, pr.progress)
	}

	// Never stale: the manifest fix clears the page's diagnostic without
	// an edit of the page.
	h.change(manifest, 2, strings.Replace(manifestText, `"unused.example.org"`, `"books.example.org"`, 1))
	diagsOf(page, func(ds []protocol.Diagnostic) bool { return find(ds, "fetch-undeclared-domain") == nil })
	if pr.pull {
		h.client.mu.Lock()
		n := h.client.refreshes
		h.client.mu.Unlock()
		if n == 0 {
			t.Error("a pull client with refresh support was never asked to refresh")
		}
	}
}

// checkMarkup checks the kind of a documentation and, for plain text,
// that no Markdown marks are left.
func checkMarkup(t *testing.T, what string, mc *protocol.MarkupContent, markdown bool, mention string) {
	t.Helper()
	want := protocol.MarkupKindPlainText
	if markdown {
		want = protocol.MarkupKindMarkdown
	}
	if mc.Kind != want {
		t.Errorf("%s: kind %s, want %s", what, mc.Kind, want)
	}
	if !strings.Contains(mc.Value, mention) {
		t.Errorf("%s does not mention %s: %q", what, mention, mc.Value)
	}
	if !markdown && strings.ContainsAny(mc.Value, "`*") {
		t.Errorf("%s: plain text with Markdown marks: %q", what, mc.Value)
	}
}
