package fixes

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

// The property over every fix the rules offer on the testdata plugins:
// applied (alone, to the plugin as it is), it leaves the files it edits
// well formed and the plugin with no error of a file and code that it
// did not have, and the diagnostic it fixes is gone or changed.
func TestEveryFixBringsNoNewError(t *testing.T) {
	roots := []string{plugins, "../../../testdata/example"}
	all := rules.All()
	cache := checker.NewCache()
	n := 0
	for _, root := range roots {
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			dir := filepath.Join(root, e.Name())
			p, err := checker.Load(nil, dir)
			if err != nil {
				continue
			}
			cfg := configFor(e.Name())
			before := checker.Run(p, all, cfg, cache)
			for _, d := range before {
				for _, fx := range d.Fixes {
					n++
					changed, err := Apply(p, fx.Edits)
					if err != nil {
						t.Errorf("%s: %s: fix %q does not apply: %v", e.Name(), d.Code, fx.Title, err)
						continue
					}
					files := map[string][]byte{}
					for rel, text := range changed {
						files[p.Abs(rel)] = text
					}
					q, err := checker.Load(&checker.Overlay{Files: files}, dir)
					if err != nil {
						t.Errorf("%s: %s: fix %q: %v", e.Name(), d.Code, fx.Title, err)
						continue
					}
					after := checker.Run(q, all, cfg, cache)
					if ne := newError(before, after); ne != nil {
						t.Errorf("%s: %s: fix %q brings %s at %s: %s", e.Name(), d.Code, fx.Title, ne.Code, ne.File, ne.Message)
					}
					if p.SyntaxError == nil && q.SyntaxError != nil {
						t.Errorf("%s: %s: fix %q breaks plugin.json: %s", e.Name(), d.Code, fx.Title, q.SyntaxError.Message)
					}
					if still(d, after) {
						t.Errorf("%s: %s: fix %q leaves the diagnostic as it was: %s", e.Name(), d.Code, fx.Title, d.Message)
					}
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d fixes in testdata", n)
	}
	t.Logf("%d fixes applied and re-checked", n)
}

// still reports whether after holds d unchanged (same file, code,
// message and span): a fix that edits nothing near it.
func still(d checker.Diagnostic, after []checker.Diagnostic) bool {
	for _, a := range after {
		if a.File == d.File && a.Code == d.Code && a.Message == d.Message && a.Span == d.Span {
			return true
		}
	}
	return false
}
