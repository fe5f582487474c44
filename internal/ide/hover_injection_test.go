package ide

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// The hover of a tool whose manifest strings, page path and last run (a
// thrown message, logs, fetches, a markdown result with command: and
// file: links and raw HTML) hold every planted control: the Markdown the
// server sends and its plain-text form show each control, hold none raw,
// and link nowhere but the web.
func TestHoverShowsPlantedControls(t *testing.T) {
	P := "\x1b]8;;https:evil.example\x07~\x1b[2K~\rFAKE~\x07~\u009b2J~\u202e~\u2066~\u2028~\U000E0041~"
	shown := []string{`\x1b]8;;https:evil.example\x07`, `\x1b[2K`, `\rFAKE`, `\x9b2J`, "U+202E", "U+2066", "U+2028", "U+E0041"}
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	dir := t.TempDir()
	manifest := `{"name":"evil","version":"1.0.0","sdk":1,"tools":[{"name":"t","page":` + js("code/t"+P) + `,"description":` + js("desc\n# forged heading\n"+P) + `}],
"capabilities":{"host":["http.fetch"],"fetch":[` + js("api.example.com"+P) + `]}}`
	for rel, body := range map[string]string{"plugin.json": manifest, "code/t" + P + ".ts": "export default async () => 1;\n"} {
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
	md := "# Result" + P + "\n\n[run](command:workbench.action.terminal.new) [f](file:///etc/passwd) <img src=x onerror=alert(1)> <command:x>\n\n```\n" + P + "\n```"
	runs := map[string]*Run{
		"t": {Record: &record.Record{OK: true, Result: json.RawMessage(`{"type":"markdown","text":` + js(md) + `}`), DurationMs: 1,
			Logs:    []record.LogEntry{{Level: "log", Message: "log" + P}},
			Fetches: []record.FetchEntry{{Method: "GET", URL: "https://api.example.com/" + P, Refused: "not-allowed" + P}}}},
	}
	failed := map[string]*Run{
		"t": {Record: &record.Record{OK: false, Error: &record.RunError{Name: "Error" + P, Message: "boom" + P, Stack: "Error: boom\n    at f (code/t.ts:1:2)" + P}}},
	}
	off := strings.Index(string(p.ManifestFile.Text), `"name":"t"`) + 9
	for name, rs := range map[string]map[string]*Run{"markdown result": runs, "thrown error": failed} {
		vw := &View{Plugin: p, Runs: rs}
		h := vw.Hover(checker.ManifestName, off)
		if h == nil {
			t.Fatalf("%s: no hover", name)
		}
		for form, out := range map[string]string{"markdown": h.Doc.Markdown(), "plain text": h.Doc.PlainText()} {
			for _, r := range out {
				if r != '\n' && r != '\t' && text.Hidden(r) {
					t.Errorf("%s, %s: holds a raw %s:\n%s", name, form, text.Visible(string(r)), text.Visible(out))
					break
				}
			}
			for _, s := range shown {
				if !strings.Contains(out, s) {
					t.Errorf("%s, %s: does not show %s:\n%s", name, form, s, out)
				}
			}
			if form != "markdown" {
				continue
			}
			if u := unsafe(out); u != "" {
				t.Errorf("%s: the hover Markdown holds %q:\n%s", name, u, out)
			}
			if strings.Contains(out, "\n# forged") {
				t.Errorf("%s: a newline in the description started a heading:\n%s", name, out)
			}
		}
	}
	// Summary (code lenses, inlay hints) is one line, controls shown.
	s := Summary(failed["t"])
	if strings.ContainsAny(s, "\n\r\x1b\u202e") || !strings.Contains(s, `\x1b`) {
		t.Errorf("summary %q", s)
	}
}
