package fixes

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

const plugins = "../../../testdata/plugins"

// render is a golden file: the diagnostics with every fix title (the
// preferred one marked *), the patch check --fix applies, what it
// refused, and the diagnostics left afterwards.
func render(t *testing.T, dir string) string {
	t.Helper()
	cfg := configFor(filepath.Base(dir))
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("== diagnostics\n")
	for _, d := range checker.Run(p, rules.All(), cfg, nil) {
		b.WriteString(line(p, d))
		pf := d.PreferredFix()
		for i := range d.Fixes {
			mark := " "
			if pf == &d.Fixes[i] {
				mark = "*"
			}
			fmt.Fprintf(&b, "  %s fix: %s\n", mark, d.Fixes[i].Title)
		}
	}
	res, err := FixAll(dir, Options{Rules: rules.All(), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("== check --diff\n")
	b.WriteString(DiffAll(res))
	for _, ch := range res.Refused {
		fmt.Fprintf(&b, "== refused [%s] %s: %s\n", ch.Code, ch.Title, ch.Why)
	}
	b.WriteString("== after check --fix\n")
	fixed, err := checker.Load(&checker.Overlay{Files: abs(p, res.After)}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diags {
		b.WriteString(line(fixed, d))
	}
	return b.String()
}

func abs(p *checker.Plugin, files map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for rel, text := range files {
		out[p.Abs(rel)] = text
	}
	return out
}

func line(p *checker.Plugin, d checker.Diagnostic) string {
	pos := checker.Position{}
	if f := fileOf(p, d.File); f != nil {
		pos = f.Position(d.Span.Start)
	}
	msg, _, _ := strings.Cut(d.Message, "\n")
	cons := ""
	if d.Consequence && len(d.Related) > 0 {
		cons = " (" + d.Related[0].Message + ")"
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]%s\n", d.File, pos.Line+1, pos.Col+1, d.Severity, msg, d.Code, cons)
}

// The golden fix cases: each a plugin of testdata/plugins whose fixes
// matter (typos, renames, paths, root causes).
var goldenCases = []string{
	"fix-domain-typo",
	"fix-domain-typo-fixtures",
	"fix-domain-lookalike",
	"fix-did-you-mean",
	"fix-fixture-names",
	"creds-scope-typo",
	"creds-scope-prefers-fetched",
	"names-shadow-builtin",
	"names-shadow-fn-tests",
	"page-hosts",
	"manifest-typos",
	"root-key-typo",
	"root-domain-url",
	"root-nested-key-typo",
}

// extraBuiltins extends the built-in catalogue for a testdata plugin, as
// a workspace does with --builtins: the default catalogue has no fn.
// names, so a function tool is shadowed only by such an extension.
var extraBuiltins = map[string][]string{
	"names-shadow-fn-tests": {"fn.define"},
}

// configFor is the configuration a testdata plugin is checked with (nil:
// the default).
func configFor(name string) *checker.Config {
	extra, ok := extraBuiltins[name]
	if !ok {
		return nil
	}
	return &checker.Config{Builtins: checker.DefaultCatalogue().Extend(extra...)}
}

func TestGolden(t *testing.T) {
	for _, name := range goldenCases {
		t.Run(name, func(t *testing.T) {
			got := render(t, filepath.Join(plugins, name))
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/authoring/fixes -update and read the result)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s; got:\n%s", name, golden, got)
			}
		})
	}
}

// check --fix of the typo scenario: one fix found, applied in memory and
// re-checked, then the fixed plugin checked again to find nothing left.
func BenchmarkFixAllTypo(b *testing.B) {
	dir := filepath.Join(plugins, "fix-domain-typo")
	o := Options{Rules: rules.All(), Cache: checker.NewCache()}
	for b.Loop() {
		res, err := FixAll(dir, o)
		if err != nil || len(res.Applied) != 1 {
			b.Fatal(err, res)
		}
	}
}

// DiffAll is the patch of a result: one file diff after another, in path
// order.
func DiffAll(res *Result) string {
	rels := make([]string, 0, len(res.After))
	for rel := range res.After {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	var b strings.Builder
	for _, rel := range rels {
		b.WriteString(Diff(rel, res.Before[rel], res.After[rel]))
	}
	return b.String()
}
