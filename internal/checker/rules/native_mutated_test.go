package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/native"
)

// mutationsDir holds native modules written as authors and attackers
// write them, one per way of changing the tools after their literal, and
// benign ones (ok-*.js) that must not be reported. Each file starts with
// `// tools: a, b` (the names plugin.json declares for it); every line
// where native-tools-mutated must report ends in `//@ <part of the
// message>`. A directory is a whole plugin (its plugin.json included),
// with the same markers in its files.
const mutationsDir = "testdata/native-mutations"

// marker is one expected diagnostic: file, 1-based line, message part.
type marker struct {
	file string
	line int
	want string
}

func markersOf(file, src string) []marker {
	var out []marker
	for i, l := range strings.Split(src, "\n") {
		if _, want, ok := strings.Cut(l, "//@ "); ok {
			out = append(out, marker{file, i + 1, strings.TrimSpace(want)})
		}
	}
	return out
}

// mutationCase loads one corpus entry as an in-memory plugin.
func mutationCase(t *testing.T, name string) (nativeFS, []marker) {
	t.Helper()
	full := filepath.Join(mutationsDir, name)
	files := nativeFS{}
	var marks []marker
	if st, err := os.Stat(full); err == nil && st.IsDir() {
		err := filepath.WalkDir(full, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(full, p)
			rel = filepath.ToSlash(rel)
			files[rel] = string(b)
			marks = append(marks, markersOf(rel, string(b))...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return files, marks
	}
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	first, _, _ := strings.Cut(src, "\n")
	list, ok := strings.CutPrefix(first, "// tools: ")
	if !ok {
		t.Fatalf("%s: the first line must be `// tools: name, …`", name)
	}
	var names []string
	for _, n := range strings.Split(list, ",") {
		names = append(names, fmt.Sprintf("%q", strings.TrimSpace(n)))
	}
	rel := "native/" + name
	files[rel] = src
	files["plugin.json"] = fmt.Sprintf(`{"name": "corpus", "version": "1.0.0", "description": "native tools", "nativeTools": [{"module": %q, "names": [%s]}]}`,
		rel, strings.Join(names, ", "))
	return files, markersOf(rel, src)
}

// TestNativeMutationCorpus checks every entry of the corpus: exactly the
// marked lines are reported (a new false positive fails as a missing
// marker would), each message naming what the marker says; the attack
// modules leave a trace on the card (native.Tools: untrusted,
// approval unknown) and the benign ones a trusted card.
func TestNativeMutationCorpus(t *testing.T) {
	entries, err := os.ReadDir(mutationsDir)
	if err != nil {
		t.Fatal(err)
	}
	attacks, benign := 0, 0
	for _, e := range entries {
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			files, marks := mutationCase(t, name)
			p, ds := runNative(t, files, nil)
			var got []string
			for _, d := range ds {
				if d.Code != NativeToolsMutated.Code {
					continue
				}
				if d.Severity != checker.Error {
					t.Errorf("%s: severity %v, want error", d.Message, d.Severity)
				}
				f := fileOf(p, d.File)
				line := f.Position(d.Span.Start).Line + 1
				got = append(got, fmt.Sprintf("%s:%d: %s", d.File, line, d.Message))
			}
			sort.Strings(got)
			used := make([]bool, len(got))
			for _, m := range marks {
				found := false
				for i, g := range got {
					if !used[i] && strings.HasPrefix(g, fmt.Sprintf("%s:%d: ", m.file, m.line)) && strings.Contains(g, m.want) {
						used[i], found = true, true
						break
					}
				}
				if !found {
					t.Errorf("missing at %s:%d: a diagnostic containing %q", m.file, m.line, m.want)
				}
			}
			for i, g := range got {
				if !used[i] {
					t.Errorf("unexpected: %s", g)
				}
			}
			if t.Failed() {
				t.Logf("all native-tools-mutated diagnostics:\n%s", strings.Join(got, "\n"))
			}
			natives := native.Tools(p)
			untrusted := 0
			for _, n := range natives {
				if len(n.Untrusted) > 0 {
					untrusted++
					if n.NeedsApproval != native.ApprovalUnknown || len(n.Requires) == 0 || n.Requires[len(n.Requires)-1] != native.NotKnown {
						t.Errorf("untrusted %s reads as needsApproval %s, requires %v", n.Name, n.NeedsApproval, n.Requires)
					}
				}
			}
			if strings.HasPrefix(name, "ok-") {
				benign++
				if len(marks) > 0 {
					t.Errorf("a benign module with markers")
				}
				if untrusted > 0 {
					t.Errorf("the card distrusts a benign module: %+v", natives)
				}
				return
			}
			attacks++
			if len(marks) == 0 {
				t.Errorf("an attack without a marker")
			}
			// A module's own writes are on its card; a plugin directory may
			// change a module's tools from another one (the rule's part).
			if untrusted == 0 && !e.IsDir() {
				t.Errorf("the card trusts every tool of an attack module: %+v", natives)
			}
		})
	}
	if attacks < 30 || benign < 8 {
		t.Errorf("corpus too small: %d attacks, %d benign modules", attacks, benign)
	}
}
