package ide

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/tooltest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

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
//	//@lens(at, title)          the code lens whose span holds the cursor has this title
//	//@hint(label)              the inlay hint on the marker's line has this label
//	//@command(at, name, args)  a lens or code action at the cursor invokes command name with
//	                            args ({"file", "dir", "tool", "name"}: Command's fields, "" and false left out)
//	//@codeaction(at, golden[, kind...])  the code actions at the cursor (of these kinds only,
//	                            "source.fixAll" included only when named) are testdata/golden/<case>/<golden>.golden
//	                            (go test -update rewrites it)
//	//@panel(tool, golden)      the last run of tool (runs.json), as plugin.runTool answers it and the
//	                            run panel reads it (PanelRecord), is testdata/golden/<case>/<golden>.golden
//	//@norecord(tool, providers, why)  plugin.runTool with "record" on tool, with the setting
//	                            pluginLsp.providers, is refused with why (WhyNoRecord; "": it records)
//
// Arguments are JSON values. at is text on the marker's line, before the
// marker; the cursor is at its "|" when it has one (the "|" is not part of
// the text), else one byte into it. The harness removes the markers, so
// the plugin checked is the one without them. A file runs.json, when
// present, holds the last run of each tool ({tool: run record}): hover,
// completion and fetch-refused-at-run read it; it may carry markers too. The plugin is checked with
// every rule, as `plugin-lsp check` and the server check it. A file base
// names a plugin (a path from the directory) the case starts from. A file
// testresults.json holds the last result of test cases ({test file:
// {case name: result as plugin.runTests answers it}}), for the lenses,
// actions and diagnostics of test files.

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
	// golden, when set, replaces the golden file's text
	// (TestMarkerHarnessFails).
	golden *string
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

// markerCaseTests loads the plugin of one testdata directory, markers
// removed (a file named base holds the path, from the directory, of a
// plugin whose files come first: the case's own files replace or add to
// them), with the test cases of each test file and
// their results (testresults.json), as the server gathers them.
func markerCaseTests(t *testing.T, src string) (*View, []marker, map[string][]TestCase) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(src))
	var ms []marker
	var runs map[string]*Run
	var results map[string]map[string]*testcase.Result
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
			case own && rel == "testresults.json":
				if err := json.Unmarshal(b, &results); err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				return nil
			case own && rel == "runs.json":
				text, fm := stripMarkers(t, rel, string(b))
				ms = append(ms, fm...)
				var recs map[string]*record.Record
				if err := json.Unmarshal([]byte(text), &recs); err != nil {
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
	files, err := tooltest.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	// The results as the server keeps them: each with its case, as run.
	kept := TestResults{}
	for _, f := range files {
		for _, c := range f.Cases {
			if r := results[f.Rel][c.Name]; r != nil {
				r.Case, r.File, r.Name, r.Tool = c, f.Rel, c.Name, c.Tool
				kept.Keep([]testcase.Result{*r})
			}
		}
	}
	tests := map[string][]TestCase{}
	for _, f := range files {
		tests[f.Rel] = TestCases(files, kept, f.Rel)
	}
	vw.Diags = append(vw.Diags, TestDiagnostics(files, kept)...) // as the server publishes them
	return vw, ms, tests
}

func TestMarkers(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "markers", "*"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no marker cases: %v", err)
	}
	total := 0
	for _, c := range cases {
		t.Run(filepath.Base(c), func(t *testing.T) {
			vw, ms, tests := markerCaseTests(t, c)
			if len(ms) == 0 {
				t.Fatal("no markers")
			}
			total += len(ms)
			for _, m := range ms {
				checkMarker(t, &markerEnv{vw: vw, tests: tests, name: filepath.Base(c), update: *update}, m)
			}
		})
	}
	t.Logf("%d markers in %d plugins", total, len(cases))
}

// markerEnv is what the markers of one case read.
type markerEnv struct {
	vw     *View
	tests  map[string][]TestCase // by test file
	name   string                // the case (its directory's name)
	update bool                  // rewrite golden files
}

func checkMarker(t tb, env *markerEnv, m marker) {
	t.Helper()
	vw := env.vw
	switch m.name {
	case "lens":
		off, want := m.cursor(t, m.str(t, 0)), m.str(t, 1)
		var got []string
		for _, l := range env.lenses(m.file) {
			if l.Span.Start <= off && off <= l.Span.End {
				got = append(got, l.Command.Title)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: lenses here %q, want one: %q", m, got, want)
		}
	case "hint":
		f, err := vw.Plugin.ReadFile(m.file)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		end := m.lineStart
		for end < len(f.Text) && f.Text[end] != '\n' {
			end++
		}
		var got []string
		for _, h := range vw.RunHints(m.file) {
			if m.lineStart <= h.At && h.At <= end {
				got = append(got, h.Label)
			}
		}
		if want := m.str(t, 0); len(got) != 1 || got[0] != want {
			t.Errorf("%s: hints on the line %q, want one: %q", m, got, want)
		}
	case "command":
		off, name := m.cursor(t, m.str(t, 0)), m.str(t, 1)
		if len(m.args) < 3 {
			t.Fatalf("%s: want (at, name, args)", m)
		}
		want, _ := json.Marshal(m.args[2])
		var got []string
		for _, c := range env.commandsAt(m.file, off) {
			b, _ := json.Marshal(commandArgs(c))
			got = append(got, c.Name+" "+string(b))
			if c.Name == name && string(b) == string(want) {
				return
			}
		}
		t.Errorf("%s: no command %s %s here (got %q)", m, name, want, got)
	case "codeaction":
		off := m.cursor(t, m.str(t, 0))
		got := renderActions(vw, env.actions(m.file, checker.Span{Start: off, End: off}, m.strs(t, 2)))
		env.golden(t, m, m.str(t, 1), "code actions differ", got)
	case "panel":
		tool := m.str(t, 0)
		run := vw.Runs[tool]
		if run == nil || run.Record == nil {
			t.Fatalf("%s: no run of %s in runs.json", m, tool)
		}
		// A copy: PanelRecord changes the record, which the other markers read.
		b, _ := json.Marshal(run.Record)
		var rec record.Record
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		got, _ := json.MarshalIndent(PanelRecord(&rec), "", "  ")
		env.golden(t, m, m.str(t, 1), "the run panel's record differs", string(got)+"\n")
	case "norecord":
		tool, providers, want := m.str(t, 0), m.str(t, 1), m.str(t, 2)
		_, native := NativeOf(vw.Plugin, tool)
		got := ""
		if f := WhyNoRecord(native, providers); f != nil {
			got = f.Message
		}
		if got != want {
			t.Errorf("%s: why %s cannot record: %q, want %q", m, tool, got, want)
		}
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
		vw, ms, tests := markerCaseTests(t, c)
		env := &markerEnv{vw: vw, tests: tests, name: filepath.Base(c)}
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
			case "lens":
				bad.args[1] = "no such title"
			case "hint":
				bad.args[0] = "no such label"
			case "command":
				bad.args[2] = map[string]any{"file": "elsewhere.json"}
			case "codeaction", "panel":
				wrong := "no such text\n"
				bad.golden = &wrong
			case "norecord":
				bad.args[2] = "no such reason"
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
				checkMarker(rec, env, bad)
			}()
			<-done
			if !rec.failed {
				t.Errorf("%s made wrong (%s) passed", m, bad)
			}
			kinds[m.name]++
		}
	}
	for _, k := range []string{"hover", "nohover", "complete", "definition", "nodefinition", "diag", "nodiag", "lens", "hint", "command", "codeaction", "panel", "norecord"} {
		if kinds[k] == 0 {
			t.Errorf("no @%s marker was broken", k)
		}
	}
}

// golden compares got, what marker m shows (what: the message's subject
// and verb), with the golden file name of the case (m.golden instead when
// set); with -update it writes the file.
func (env *markerEnv) golden(t tb, m marker, name, what, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", env.name, name+".golden")
	if m.golden == nil && env.update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		return
	}
	var want string
	if m.golden != nil {
		want = *m.golden
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (go test -update writes it)", m, err)
		}
		want = string(b)
	}
	if got != want {
		t.Errorf("%s: %s from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", m, what, path, got, want)
	}
}

// lenses are the code lenses of file rel, as the server serves them.
func (env *markerEnv) lenses(rel string) []Lens {
	out := env.vw.ToolLenses(rel)
	return append(out, TestLenses(rel, env.tests[rel])...)
}

// actions are the code actions for span of file rel, of the kinds only
// (every kind but fix-all when empty), as the server computes them.
func (env *markerEnv) actions(rel string, span checker.Span, only []string) []Action {
	req := ActionRequest{File: rel, Span: span, Tests: env.tests[rel], Recheck: func(manifest []byte) ([]checker.Diagnostic, error) {
		dir := env.vw.Plugin.Dir
		fsys := &checker.Overlay{Files: map[string][]byte{filepath.Join(dir, checker.ManifestName): manifest}}
		p, err := checker.Load(fsys, dir)
		if err != nil {
			return nil, err
		}
		return checker.Run(p, rules.All(), checker.DefaultConfig(), nil), nil
	}}
	req.Allow = AllowKinds(only)
	if Explicitly(only, SourceFixAll) {
		req.FixAll = &fixes.Options{Rules: rules.All(), Config: checker.DefaultConfig()}
	}
	return env.vw.CodeActions(req)
}

// commandsAt are the commands of the lenses and code actions at off.
func (env *markerEnv) commandsAt(rel string, off int) []Command {
	var out []Command
	for _, l := range env.lenses(rel) {
		if l.Span.Start <= off && off <= l.Span.End {
			out = append(out, l.Command)
		}
	}
	for _, a := range env.actions(rel, checker.Span{Start: off, End: off}, nil) {
		if a.Command != nil {
			out = append(out, *a.Command)
		}
	}
	return out
}

// commandArgs is a command's argument as the markers spell it.
func commandArgs(c Command) map[string]any {
	out := map[string]any{}
	if c.File != "" {
		out["file"] = c.File
	}
	if c.Dir {
		out["dir"] = true
	}
	if c.Tool != "" {
		out["tool"] = c.Tool
	}
	if c.Case != "" {
		out["name"] = c.Case
	}
	return out
}

// renderActions is the golden text of code actions: each one's kind,
// title and whether it is preferred, the diagnostics it resolves, its
// command, and its edits (line:column, 1-based, columns in bytes) with the
// text they put there; a created file is shown whole.
func renderActions(vw *View, acts []Action) string {
	var b strings.Builder
	pos := func(f *checker.File, off int) string {
		if f == nil {
			return fmt.Sprint(off)
		}
		before := string(f.Text[:min(off, len(f.Text))])
		return fmt.Sprintf("%d:%d", strings.Count(before, "\n")+1, off-strings.LastIndexByte(before, '\n'))
	}
	if len(acts) == 0 {
		return "(no code actions)\n"
	}
	for _, a := range acts {
		pref := ""
		if a.Preferred {
			pref = " (preferred)"
		}
		fmt.Fprintf(&b, "%s %q%s\n", a.Kind, a.Title, pref)
		for _, d := range a.Diagnostics {
			f, _ := vw.Plugin.ReadFile(d.File)
			fmt.Fprintf(&b, "  fixes %s at %s:%s\n", d.Code, d.File, pos(f, d.Span.Start))
		}
		if c := a.Command; c != nil {
			args, _ := json.Marshal(commandArgs(*c))
			fmt.Fprintf(&b, "  command %s %q %s\n", c.Name, c.Title, args)
		}
		byFile := map[string][]checker.Edit{}
		var order []string
		for _, e := range a.Edits {
			if e.Create {
				fmt.Fprintf(&b, "  create %s:\n", e.File)
				for _, l := range strings.SplitAfter(e.NewText, "\n") {
					if l != "" {
						fmt.Fprintf(&b, "    | %s\n", strings.TrimSuffix(l, "\n"))
					}
				}
				continue
			}
			if byFile[e.File] == nil {
				order = append(order, e.File)
			}
			byFile[e.File] = append(byFile[e.File], e)
		}
		for _, file := range order {
			f, err := vw.Plugin.ReadFile(file)
			if err != nil {
				fmt.Fprintf(&b, "  edit %s: %v\n", file, err)
				continue
			}
			after, err := fixes.ApplyText(f.Text, byFile[file])
			if err != nil {
				fmt.Fprintf(&b, "  edit %s: %v\n", file, err)
				continue
			}
			fmt.Fprintf(&b, "  edit %s:\n%s", file, lineDiff(string(f.Text), string(after)))
		}
	}
	return b.String()
}

// lineDiff shows the lines that differ between a and b (one changed
// region: the common leading and trailing lines cut), with the line
// number in a where the change starts.
func lineDiff(a, b string) string {
	al, bl := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	j := 0
	for j < len(al)-i && j < len(bl)-i && al[len(al)-1-j] == bl[len(bl)-1-j] {
		j++
	}
	var out strings.Builder
	fmt.Fprintf(&out, "    @@ line %d\n", i+1)
	for _, l := range al[i : len(al)-j] {
		fmt.Fprintf(&out, "    -%s\n", strings.TrimSuffix(l, "\n"))
	}
	for _, l := range bl[i : len(bl)-j] {
		fmt.Fprintf(&out, "    +%s\n", strings.TrimSuffix(l, "\n"))
	}
	return out.String()
}
