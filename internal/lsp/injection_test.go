package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// What the server sends of a plugin whose strings hold every planted
// control (the hover's Markdown, the published diagnostics) shows each
// one and holds none raw. What the hovers say is ide's; this checks that
// the glue sends that and nothing else.
func TestServerShowsPlantedControls(t *testing.T) {
	P := "\x1b]8;;https:evil.example\x07~\x1b[2K~\rFAKE~\u009b2J~\u202e~\u2066~\u2028~"
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	dir := filepath.Join(t.TempDir(), "evil")
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	manifest := `{"name":"evil","version":"1.0.0","sdk":1,"tools":[{"name":"t","page":"code/t","description":` + js("desc"+P) + `},{"name":"u","page":` + js("code/u"+P) + `,"description":` + js("desc"+P) + `},{"name":` + js("v"+P) + `,"page":"code/v","description":"d"}],
"capabilities":{"host":["http.fetch"],"fetch":[` + js("api.example.com/"+P) + `]}}`
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(manifest), 0o644)
	os.WriteFile(filepath.Join(dir, "code", "t.ts"), []byte("export default async () => 1;\n"), 0o644)
	h := newHarness(t, Options{})
	h.initialize(dir, richCaps())
	path := filepath.Join(dir, "plugin.json")
	h.openText(path, manifest)
	check := func(what, out string, want ...string) {
		t.Helper()
		for _, r := range out {
			if r != '\n' && r != '\t' && text.Hidden(r) {
				t.Errorf("%s holds a raw %s: %s", what, text.Visible(string(r)), text.Visible(out))
				return
			}
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s does not show %s: %s", what, w, out)
			}
		}
	}
	// What a reader sees of the Markdown: its backslash escapes and &lt; undone.
	md := h.hover(path, posOf(t, manifest, `"name":"t"`, 9))
	seen := strings.ReplaceAll(regexp.MustCompile("\\\\([!-/:-@\\[-`{-~])").ReplaceAllString(md, "$1"), "&lt;", "<")
	check("the hover", seen, `\x1b]8;;https:evil.example\x07`, `\x1b[2K`, `\rFAKE`, `\x9b2J`, "U+202E", "U+2066", "U+2028")
	d := h.waitDiags(path, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	var msgs []string
	for _, x := range d.Diagnostics {
		var m string
		raw, _ := json.Marshal(x.Message)
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("message %s: %v", raw, err)
		}
		msgs = append(msgs, m)
		for _, r := range x.RelatedInformation {
			msgs = append(msgs, r.Message)
		}
	}
	check("the diagnostics", strings.Join(msgs, "\n"))

	// The outline and the quick fixes name the plugin's strings too.
	syms, err := h.server.DocumentSymbol(h.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(syms)
	var names []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && (k == "name" || k == "detail") {
					names = append(names, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var generic any
	json.Unmarshal(raw, &generic)
	walk(generic)
	check("the document symbols", strings.Join(names, "\n"), `v\x1b]8;;https:evil.example\x07`, "U+202E")
	var titles []string
	for _, x := range d.Diagnostics {
		acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}, Range: x.Range,
			Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{x}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acts {
			if ca, ok := a.(*protocol.CodeAction); ok {
				titles = append(titles, ca.Title)
			}
		}
	}
	if len(titles) == 0 {
		t.Fatal("no code action to look at")
	}
	check("the code action titles", strings.Join(titles, "\n"))
}
