package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// update rewrites the .expect files of TestPlugins (and is the one -update
// flag of this package: other golden tests here should use it too).
var update = flag.Bool("update", false, "rewrite testdata .expect files from the current output")

// pluginsDir holds one plugin per directory, each with <name>.expect
// beside it: exactly what `plugin-lsp check --format text` prints for it
// (with the "  fix: <title>" lines), paths relative to the plugin
// directory.
const pluginsDir = "../../../testdata/plugins"

// formatText renders diagnostics as check --format text does with the
// plugin directory as the prefix ("" for paths relative to the plugin).
func formatText(p *checker.Plugin, prefix string, ds []checker.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		line, col := 1, 1
		if f := fileOf(p, d.File); f != nil {
			pos := f.Position(d.Span.Start)
			line, col = pos.Line+1, pos.Col+1
		}
		msg := d.Message
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", prefix+d.File, line, col, d.Severity, msg, d.Code)
		if t := d.ShownFix(); t != "" {
			fix, _, _ := strings.Cut(t, "\n")
			fmt.Fprintf(&b, "  fix: %s\n", fix)
		}
	}
	return b.String()
}

func fileOf(p *checker.Plugin, rel string) *checker.File {
	if rel == checker.ManifestName {
		return p.ManifestFile
	}
	if rel == checker.FixturesName && p.FixturesFile != nil {
		return p.FixturesFile
	}
	f, err := p.ReadFile(rel)
	if err != nil {
		return nil
	}
	return f
}

// checkDir loads and checks one plugin directory.
func checkDir(t testing.TB, dir string) (*checker.Plugin, []checker.Diagnostic) {
	t.Helper()
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p, checker.Run(p, All(), checker.DefaultConfig(), checker.NewCache())
}

func TestPlugins(t *testing.T) {
	entries, err := os.ReadDir(pluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(pluginsDir, name)
			p, ds := checkDir(t, dir)
			got := formatText(p, "", ds)
			expectFile := dir + ".expect"
			if *update {
				if err := os.WriteFile(expectFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(expectFile)
			if err != nil {
				t.Fatalf("%v (write the expected diagnostics there, or run with -update and read the result)", err)
			}
			if got != string(want) {
				t.Errorf("%s: diagnostics differ from %s\n%s", name, expectFile, lineDiff(string(want), got))
			}
		})
	}
	if n == 0 {
		t.Fatal("no plugins under " + pluginsDir)
	}
	// .expect files without a plugin are stale.
	for _, e := range entries {
		if base, ok := strings.CutSuffix(e.Name(), ".expect"); ok {
			if fi, err := os.Stat(filepath.Join(pluginsDir, base)); err != nil || !fi.IsDir() {
				t.Errorf("%s has no plugin directory beside it", e.Name())
			}
		}
	}
}

// The bundled example is what the README shows: it must stay clean.
func TestExampleIsClean(t *testing.T) {
	p, ds := checkDir(t, "../../../testdata/example/books")
	if len(ds) != 0 {
		t.Errorf("testdata/example/books is not clean:\n%s", formatText(p, "", ds))
	}
}

// lineDiff shows missing (-) and unexpected (+) lines.
func lineDiff(want, got string) string {
	wl := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	gl := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	inGot := map[string]int{}
	for _, l := range gl {
		inGot[l]++
	}
	inWant := map[string]int{}
	for _, l := range wl {
		inWant[l]++
	}
	var b strings.Builder
	for _, l := range wl {
		if l != "" && inGot[l] == 0 {
			b.WriteString("  - missing:    " + l + "\n")
		} else {
			inGot[l]--
		}
	}
	for _, l := range gl {
		if l != "" && inWant[l] == 0 {
			b.WriteString("  + unexpected: " + l + "\n")
		} else {
			inWant[l]--
		}
	}
	if b.Len() == 0 {
		b.WriteString("  (same lines, different order)\n")
	}
	return b.String()
}

// Every fix offered on any testdata plugin keeps a valid plugin.json valid,
// edits only spans inside the file, and creates only files that do not
// exist yet.
func TestFixesKeepManifestValid(t *testing.T) {
	entries, err := os.ReadDir(pluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p, ds := checkDir(t, filepath.Join(pluginsDir, e.Name()))
		valid := p.SyntaxError == nil
		for _, d := range ds {
			for _, f := range d.Fixes {
				n++
				text := append([]byte{}, p.ManifestFile.Text...)
				var edits []checker.Edit
				for _, ed := range f.Edits {
					switch {
					case ed.Create:
						if p.Exists(ed.File) {
							t.Errorf("%s: %s: fix %q creates %s, which exists", e.Name(), d.Code, f.Title, ed.File)
						}
					case ed.File == checker.ManifestName:
						if ed.Span.Start < 0 || ed.Span.End > len(text) || ed.Span.Start > ed.Span.End {
							t.Errorf("%s: %s: fix %q edits %v outside plugin.json", e.Name(), d.Code, f.Title, ed.Span)
							continue
						}
						edits = append(edits, ed)
					}
				}
				// Apply from the end so earlier spans stay put.
				sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start < edits[j].Span.Start })
				for i := len(edits) - 1; i >= 0; i-- {
					ed := edits[i]
					text = append(text[:ed.Span.Start:ed.Span.Start], append([]byte(ed.NewText), text[ed.Span.End:]...)...)
				}
				if _, serr := jsonpos.Parse(text); valid && len(edits) > 0 && serr != nil {
					t.Errorf("%s: %s: fix %q breaks plugin.json: %v\n%s", e.Name(), d.Code, f.Title, serr.Message, text)
				}
			}
		}
	}
	t.Logf("%d fixes applied", n)
}
