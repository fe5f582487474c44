//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// The output-injection corpus: a plugin whose directory name, manifest
// strings, page paths, test names and thrown messages hold every control
// an attacker plants in terminal output — an OSC 8 link, a CSI that
// erases the line, a bare CR that overwrites it, BEL, C1 CSI as a
// character and as a raw byte, the bidi override and isolates, a line
// separator and a tag character. Every command's output (text, TAP, JSON,
// SARIF, JUnit, the card) must show each one and print none raw.

// planted, with the visible forms each may take in text output: the
// sanitiser's, or Go's quoting where a message quotes with %q. (No '/':
// the directory's name holds them all.)
var planted = []struct {
	raw   string
	shown []string
}{
	{"\x1b]8;;https:evil.example\x07", []string{`\x1b]8;;https:evil.example\x07`, `\x1b]8;;https:evil.example\a`}},
	{"\x1b[2K", []string{`\x1b[2K`}},
	{"\nFORGED", []string{`\nFORGED`}},
	{"\rFAKE", []string{`\rFAKE`}},
	{"\x07", []string{`\x07`, `\a`}},
	{"\u009b2J", []string{`\x9b2J`, `\u009b2J`}},
	{"\u202e", []string{"<U+202E>", `\u202e`}},
	{"\u2066", []string{"<U+2066>", `\u2066`}},
	{"\u2028", []string{"<U+2028>", `\u2028`}},
	{"\U000E0041", []string{"<U+E0041>", `\U000e0041`}},
}

// shows reports that out holds p raw (decoded documents) or shown.
func shows(out string, raw string, shown []string) bool {
	if raw != "" && strings.Contains(out, raw) {
		return true
	}
	for _, s := range shown {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

func plantedText() string {
	var b strings.Builder
	for _, p := range planted {
		b.WriteString(p.raw + "~")
	}
	return b.String()
}

// rawHidden returns the first control, format or separator character (or
// byte that is not UTF-8) in out other than newline and tab, "" if none.
func rawHidden(out string) string {
	for i, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if r == utf8.RuneError && !strings.HasPrefix(out[i:], "\uFFFD") || text.Hidden(r) {
			return text.Visible(out[i : i+max(1, utf8.RuneLen(r))])
		}
	}
	return ""
}

// injectionPlugin writes the hostile plugin into a directory whose own
// name holds the controls (and a raw 0x9b byte), and returns it.
func injectionPlugin(t *testing.T) string {
	P := plantedText()
	dir := filepath.Join(t.TempDir(), "evil"+P+"\x9b")
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	files := map[string]string{
		"plugin.json": `{"name":` + js("evil"+P) + `,"version":` + js("1.0.0"+P) + `,"sdk":1,"description":` + js("Reads mail.\n\nNative tools (full trust, 0):\n"+P) + `,
"tools":[{"name":"t","page":"code/t","description":` + js("throws"+P) + `},
 {"name":"v","page":` + js("code/v"+P) + `,"description":"a page whose path holds the controls"},
 {"name":` + js("w"+P) + `,"page":"code/t"}],
"capabilities":{"host":["http.fetch"],"fetch":[` + js("api.example.com"+P) + `]}}`,
		"code/t.ts":          "export default async function () { throw new Error(" + js("boom"+P) + "); }\n",
		"code/v" + P + ".ts": "export default async function () { return 1 +; }\n",
		"tests/t.json":       `{"tool":"t","cases":[{"name":` + js("case"+P) + `,"input":{},"result":{"type":"stat","value":` + js("want"+P) + `}}]}`,
	}
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cli runs a command the way dispatch does (its output through the
// sanitised writers); run and test use the shared runner.
func cli(t *testing.T, args ...string) (stdout, stderr string) {
	var out, errb bytes.Buffer
	switch args[0] {
	case "run", "test":
		sout, serr, flush := sanitised(&out, &errb)
		if args[0] == "run" {
			runCommand(args[1:], sout, serr, sharedRunFactory)
		} else {
			testCommand(args[1:], sout, serr, func(int) (runner.ToolRunner, func(), error) { return sharedRunFactory() })
		}
		flush()
	default:
		dispatch(args, strings.NewReader(""), &out, &errb)
	}
	return out.String(), errb.String()
}

func TestOutputInjection(t *testing.T) {
	dir := injectionPlugin(t)
	fresh := filepath.Join(filepath.Dir(dir), "new"+plantedText())
	cases := []struct {
		args  []string
		kind  string // text, json, xml: how stdout is read
		shows bool   // the output quotes the plugin: each planted control must be shown
	}{
		{[]string{"check", dir}, "text", true},
		{[]string{"check", "--format", "json", dir}, "json", true},
		{[]string{"check", "--format", "sarif", dir}, "json", true},
		{[]string{"check", "--diff", dir}, "text", false},
		{[]string{"check", "--fix", dir}, "text", true},
		{[]string{"review", dir}, "text", true},
		{[]string{"review", "--format", "json", dir}, "json", true},
		{[]string{"pin", dir}, "text", true},
		{[]string{"types", dir}, "text", true},
		{[]string{"run", dir, "t"}, "json", true},
		{[]string{"run", dir, "v"}, "json", true},
		{[]string{"run", dir, "code/v" + plantedText() + ".ts"}, "json", true},
		{[]string{"test", dir}, "text", true},
		{[]string{"test", "--format", "tap", dir}, "text", true},
		{[]string{"test", "--format", "json", dir}, "json", true},
		{[]string{"test", "--format", "junit", dir}, "xml", true},
		{[]string{"init", fresh}, "text", true},
		{[]string{"init", fresh, "--tool", "x" + plantedText()}, "text", true},
	}
	for _, c := range cases {
		name := text.Visible(strings.Join(c.args[:len(c.args)-1], " "))
		stdout, stderr := cli(t, c.args...)
		for what, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if bad := rawHidden(out); bad != "" {
				t.Errorf("%s: %s holds a raw %s:\n%s", name, what, bad, text.Visible(out))
			}
		}
		// A newline in a name cannot start a line of its own (XML keeps
		// the newlines of a failure's text: they are its content).
		if c.kind != "xml" && strings.Contains(stdout+stderr, "\nFORGED") {
			t.Errorf("%s: a planted newline starts a line:\n%s", name, stdout+stderr)
		}
		switch c.kind {
		case "json":
			var v any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Errorf("%s: stdout is not JSON: %v\n%s", name, err, stdout)
			}
		case "xml":
			if err := xml.Unmarshal([]byte(stdout), new(struct{})); err != nil {
				t.Errorf("%s: stdout is not XML: %v\n%s", name, err, stdout)
			}
		}
		if !c.shows {
			continue
		}
		// TAP and JSON escape a backslash of a shown control once more.
		all := strings.ReplaceAll(stdout+stderr, `\\`, `\`)
		raw := func(string) string { return "" }
		if c.kind != "text" {
			// A JSON or XML document means what the plugin wrote: its
			// escapes decode to the planted characters (the card shows
			// them in JSON too; XML 1.0 cannot hold a C0 control, which
			// encoding/xml writes as U+FFFD). What a person reads of the
			// document is checked above: nothing raw.
			all = stderr + decoded(stdout, c.kind)
			raw = func(s string) string { return s }
		}
		for _, p := range planted {
			if c.kind == "xml" && strings.ContainsAny(p.raw, "\x1b\x07\r") {
				continue
			}
			if !shows(all, raw(p.raw), p.shown) {
				t.Errorf("%s: does not show %s:\n%s", name, p.shown[0], text.Visible(all))
			}
		}
	}
}

// decoded is every string of a JSON or XML document, decoded, one per line.
func decoded(doc, kind string) string {
	var b strings.Builder
	if kind == "xml" {
		d := xml.NewDecoder(strings.NewReader(doc))
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			switch tk := tok.(type) {
			case xml.CharData:
				b.Write(tk)
			case xml.StartElement:
				for _, a := range tk.Attr {
					b.WriteString(a.Value + "\n")
				}
			}
		}
		return b.String()
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v + "\n")
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				b.WriteString(k + "\n")
				walk(x)
			}
		}
	}
	var v any
	json.Unmarshal([]byte(doc), &v)
	walk(v)
	return b.String()
}
