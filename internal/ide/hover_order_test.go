package ide

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// The hover of a manifest tool puts what a reader asks first above the
// fold: the tool's words, its reach and its last run; the page and the
// input schema (here 30-odd lines of JSON) come after them. A description
// holding "<name>" keeps it: Markdown would read it as an HTML tag.
func TestToolHoverReachAndRunBeforeSchema(t *testing.T) {
	props := map[string]any{}
	for _, k := range []string{"city", "country", "days", "units", "lang", "hourly", "alerts", "lat", "lon"} {
		props[k] = map[string]any{"type": "string", "description": "the " + k}
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": []string{"city"}})
	dir := t.TempDir()
	manifest := `{"name":"weather","version":"1.0.0","sdk":1,"tools":[{"name":"forecast","page":"code/forecast.ts",` +
		`"description":"Registers as fn.<name>; reads PLUGIN_SECRET_<PLUGIN>__key","inputJsonSchema":` + string(schema) + `}],` +
		`"capabilities":{"host":["http.fetch"],"fetch":["api.weather.example"]}}`
	for rel, body := range map[string]string{"plugin.json": manifest, "code/forecast.ts": "export default async () => 1;\n"} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	run := &Run{Record: &record.Record{OK: true, Result: json.RawMessage(`{"type":"stat","label":"High","value":"21 °C"}`), DurationMs: 3,
		Fetches: []record.FetchEntry{{Method: "GET", URL: "https://evil.example/x", Refused: "not-allowed", Error: "fetch refused: host evil.example is not in capabilities.fetch"}}}}
	off := strings.Index(string(p.ManifestFile.Text), `"name":"forecast"`) + 9
	h := (&View{Plugin: p, Runs: map[string]*Run{"forecast": run}}).Hover(checker.ManifestName, off)
	if h == nil {
		t.Fatal("no hover")
	}
	md := h.Doc.Markdown()
	order := []string{"fn.forecast", "Reach: host", "21 °C", "Page: ", "Input schema:", `"alerts"`}
	last := -1
	for _, w := range order {
		i := strings.Index(md, w)
		if i < 0 {
			t.Fatalf("the hover lacks %q:\n%s", w, md)
		}
		if i < last {
			t.Errorf("%q comes before what should precede it (order %q):\n%s", w, order, md)
		}
		last = i
	}
	if lines := strings.Count(md[:strings.Index(md, "21 °C")], "\n"); lines > 12 {
		t.Errorf("the last run starts on line %d of the hover:\n%s", lines+1, md)
	}
	// A refused fetch consulted no source; the table says so rather than leave the cell empty.
	if !strings.Contains(md, "| refused: not-allowed | not asked |") {
		t.Errorf("the refused fetch's source:\n%s", md)
	}
	if strings.Contains(md, "<name>") || strings.Contains(md, "<PLUGIN>") {
		t.Errorf("a description's <name> is left for Markdown to read as HTML:\n%s", md)
	}
	if plain := h.Doc.PlainText(); !strings.Contains(plain, "fn.<name>") || !strings.Contains(plain, "PLUGIN_SECRET_<PLUGIN>__key") {
		t.Errorf("the plain-text hover loses the description's words:\n%s", plain)
	}
}
