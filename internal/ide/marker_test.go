package ide

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// Marker tests (after gopls's): each directory of testdata/markers is a
// plugin whose files carry inline markers, in a block comment anywhere
// (plugin.json included) or a line comment at the end of a line:
//
//	/*@hover(at, want...)*/     the hover contains each want ("!x": lacks x)
//	//@nohover(at)              no hover
//	//@complete(at, label...)   exactly these completions, in order
//	//@definition(at, "file:line:col", "text")  one target: its start and text
//	//@nodefinition(at)         no target
//	//@diag(at, code, part)     a diagnostic of code whose span holds the cursor and whose message holds part
//	//@nodiag(code[, part])     no diagnostic of code in this file (whose message holds part)
//
// Arguments are JSON values. at is text on the marker's line, before the
// marker; the cursor is at its "|" when it has one (the "|" is not part of
// the text), else one byte into it. The harness removes the markers, so
// the plugin checked is the one without them. A file runs.json, when
// present, holds the last run of each tool ({tool: run record}): hover,
// completion and fetch-refused-at-run read it. The plugin is checked with
// every rule, as `plugin-lsp check` and the server check it. A file base
// names a plugin (a path from the directory) the case starts from.

// tb is what the marker checks report to: a *testing.T, or a recorder
// (TestMarkerHarnessFails).
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// recorder is a tb that records failures; Fatalf ends the goroutine.
type recorder struct{ failed bool }

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(string, ...any)     { r.failed = true }
func (r *recorder) Fatalf(f string, a ...any) { r.failed = true; runtime.Goexit() }

// marker is one parsed marker.
type marker struct {
	name string
	args []any
	file string // plugin-relative
	line int    // 1-based, for messages
	// lineText is the marker's line (markers removed) up to the marker.
	lineStart int
	before    string
}

func (m marker) String() string {
	return fmt.Sprintf("%s:%d: @%s%s", m.file, m.line, m.name, dumpArgs(m.args))
}

func dumpArgs(args []any) string {
	b, _ := json.Marshal(args)
	return "(" + strings.TrimSuffix(strings.TrimPrefix(string(b), "["), "]") + ")"
}

// stripMarkers returns text without its markers, and the markers.
func stripMarkers(t tb, rel string, text string) (string, []marker) {
	t.Helper()
	var out strings.Builder
	var ms []marker
	line, lineStart := 1, 0
	for i := 0; i < len(text); {
		var body string
		var end int
		switch {
		case strings.HasPrefix(text[i:], "/*@"):
			j := strings.Index(text[i:], "*/")
			if j < 0 {
				t.Fatalf("%s:%d: unterminated marker", rel, line)
			}
			body, end = text[i+3:i+j], i+j+2
		case strings.HasPrefix(text[i:], "//@"):
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			body, end = text[i+3:i+j], i+j
		default:
			if text[i] == '\n' {
				line++
				lineStart = out.Len() + 1
			}
			out.WriteByte(text[i])
			i++
			continue
		}
		open, close := strings.IndexByte(body, '('), strings.LastIndexByte(body, ')')
		if open < 0 || close < open {
			t.Fatalf("%s:%d: marker %q: want name(args)", rel, line, body)
		}
		var args []any
		if err := json.Unmarshal([]byte("["+body[open+1:close]+"]"), &args); err != nil {
			t.Fatalf("%s:%d: marker %q: arguments are JSON values: %v", rel, line, body, err)
		}
		// markers sit after what they test: drop the spaces before them
		s := strings.TrimRight(out.String(), " \t")
		out.Reset()
		out.WriteString(s)
		ms = append(ms, marker{name: strings.TrimSpace(body[:open]), args: args, file: rel, line: line, lineStart: lineStart, before: s[lineStart:]})
		i = end
	}
	return out.String(), ms
}

// cursor is the byte offset at marks, on the marker's line.
func (m marker) cursor(t tb, at string) int {
	t.Helper()
	delta := 1
	if i := strings.IndexByte(at, '|'); i >= 0 {
		at, delta = at[:i]+at[i+1:], i
	}
	j := strings.Index(m.before, at)
	if j < 0 {
		t.Fatalf("%s: %q is not on the marker's line (%q)", m, at, m.before)
	}
	return m.lineStart + j + delta
}

func (m marker) str(t tb, i int) string {
	t.Helper()
	if i >= len(m.args) {
		t.Fatalf("%s: argument %d missing", m, i+1)
	}
	s, ok := m.args[i].(string)
	if !ok {
		t.Fatalf("%s: argument %d is not a string", m, i+1)
	}
	return s
}

func (m marker) strs(t tb, from int) []string {
	var out []string
	for i := from; i < len(m.args); i++ {
		out = append(out, m.str(t, i))
	}
	return out
}

// markerCase loads the plugin of one testdata directory, markers removed.
// A file named base holds the path (from the directory) of a plugin whose
// files come first: the case's own files replace or add to them.
func markerCase(t *testing.T, src string) (*View, []marker) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(src))
	var ms []marker
	var runs map[string]*Run
	copyIn := func(from string, own bool) {
		err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(from, p)
			rel = filepath.ToSlash(rel)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			switch {
			case own && rel == "base":
				return nil
			case own && rel == "runs.json":
				var recs map[string]*record.Record
				if err := json.Unmarshal(b, &recs); err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				runs = map[string]*Run{}
				for tool, rec := range recs {
					runs[tool] = &Run{Record: rec}
				}
				return nil
			}
			text, fm := stripMarkers(t, rel, string(b))
			if own {
				ms = append(ms, fm...)
			}
			target := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			return os.WriteFile(target, []byte(text), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(src, "base")); err == nil {
		copyIn(filepath.Join(src, filepath.FromSlash(strings.TrimSpace(string(b)))), false)
	}
	copyIn(src, true)
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := checker.DefaultConfig()
	cfg.Runs = AnalysisRuns(runs)
	vw := &View{Plugin: p, Diags: checker.Run(p, rules.All(), cfg, nil), Runs: runs}
	return vw, ms
}

func TestMarkers(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "markers", "*"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no marker cases: %v", err)
	}
	total := 0
	for _, c := range cases {
		t.Run(filepath.Base(c), func(t *testing.T) {
			vw, ms := markerCase(t, c)
			if len(ms) == 0 {
				t.Fatal("no markers")
			}
			total += len(ms)
			for _, m := range ms {
				checkMarker(t, vw, m)
			}
		})
	}
	t.Logf("%d markers in %d plugins", total, len(cases))
}

func checkMarker(t tb, vw *View, m marker) {
	t.Helper()
	switch m.name {
	case "hover", "nohover":
		h := vw.Hover(m.file, m.cursor(t, m.str(t, 0)))
		if m.name == "nohover" {
			if h != nil {
				t.Errorf("%s: hover %q", m, h.Doc.Markdown())
			}
			return
		}
		if h == nil {
			t.Errorf("%s: no hover", m)
			return
		}
		for _, w := range m.strs(t, 1) {
			if not, ok := strings.CutPrefix(w, "!"); ok {
				if strings.Contains(h.Doc.Markdown(), not) {
					t.Errorf("%s: the hover shows %q:\n%s", m, not, h.Doc.Markdown())
				}
			} else if !strings.Contains(h.Doc.Markdown(), w) {
				t.Errorf("%s: the hover lacks %q:\n%s", m, w, h.Doc.Markdown())
			}
		}
	case "complete":
		var got []string
		for _, c := range vw.Complete(m.file, m.cursor(t, m.str(t, 0))) {
			got = append(got, c.Label)
		}
		if want := m.strs(t, 1); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: completions %q, want %q", m, got, want)
		}
	case "definition", "nodefinition":
		var got []string
		for _, d := range vw.Definition(m.file, m.cursor(t, m.str(t, 0))) {
			f, err := vw.Plugin.ReadFile(d.File)
			if err != nil {
				t.Fatalf("%s: target %s: %v", m, d.File, err)
			}
			before := f.Text[:d.Span.Start]
			line, col := strings.Count(string(before), "\n")+1, d.Span.Start-strings.LastIndexByte(string(before), '\n')
			got = append(got, fmt.Sprintf("%s:%d:%d %q", d.File, line, col, f.Text[d.Span.Start:d.Span.End]))
		}
		want := []string{}
		if m.name == "definition" {
			want = []string{fmt.Sprintf("%s %q", m.str(t, 1), m.str(t, 2))}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: definition %q, want %q", m, got, want)
		}
	case "diag":
		off, code, part := m.cursor(t, m.str(t, 0)), m.str(t, 1), m.str(t, 2)
		var seen []string
		for _, d := range vw.Diags {
			if d.File != m.file || d.Code != code {
				continue
			}
			if d.Span.Start <= off && off <= d.Span.End && strings.Contains(d.Message, part) {
				return
			}
			seen = append(seen, d.Message)
		}
		t.Errorf("%s: no %s diagnostic here holding %q (of that code in the file: %q)", m, code, part, seen)
	case "nodiag":
		code, part := m.str(t, 0), ""
		if len(m.args) > 1 {
			part = m.str(t, 1)
		}
		for _, d := range vw.Diags {
			if d.File == m.file && d.Code == code && strings.Contains(d.Message, part) {
				t.Errorf("%s: %s", m, d.Message)
			}
		}
	default:
		t.Fatalf("%s: unknown marker", m)
	}
}

// TestMarkerHarnessFails checks that the harness can fail: every marker,
// with its expectation made wrong, is reported.
func TestMarkerHarnessFails(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join("testdata", "markers", "*"))
	kinds := map[string]int{}
	for _, c := range cases {
		vw, ms := markerCase(t, c)
		for _, m := range ms {
			bad := m
			bad.args = append([]any(nil), m.args...)
			switch m.name {
			case "hover":
				bad.args = append(bad.args, "no such text")
			case "diag":
				bad.args[2] = "no such text"
			case "nohover":
				bad.name = "hover"
			case "complete":
				bad.args = append(bad.args, "no-such-label")
			case "definition":
				bad.args[1] = "nowhere.ts:1:1"
			case "nodefinition":
				bad.name, bad.args = "definition", append(bad.args, "nowhere.ts:1:1", "")
			case "nodiag":
				bad.args = bad.args[:1] // any diagnostic of the code
				if len(m.args) == 1 {
					continue // the marker says the file has none: nothing to break
				}
			}
			rec := &recorder{}
			done := make(chan bool)
			go func() {
				defer close(done)
				checkMarker(rec, vw, bad)
			}()
			<-done
			if !rec.failed {
				t.Errorf("%s made wrong (%s) passed", m, bad)
			}
			kinds[m.name]++
		}
	}
	for _, k := range []string{"hover", "nohover", "complete", "definition", "nodefinition", "diag", "nodiag"} {
		if kinds[k] == 0 {
			t.Errorf("no @%s marker was broken", k)
		}
	}
}
