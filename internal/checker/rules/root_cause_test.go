package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Each golden case with a known root cause shows the cause first, shows
// at most one follow-on, tags it as a consequence pointing at the cause
// with the cause's fix, and applying that fix leaves no error.
func TestRootCauseFirst(t *testing.T) {
	for _, c := range []struct{ name, cause string }{
		{"root-key-typo", `unknown key "capabilites" (did you mean "capabilities"?)`},
		{"root-domain-url", `"https://api.openlibrary.org/" is not a bare domain`},
		{"root-nested-key-typo", `unknown key "fecth" (did you mean "fetch"?)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, ds := checkDir(t, filepath.Join(pluginsDir, c.name))
			if len(ds) == 0 || !strings.Contains(ds[0].Message, c.cause) {
				t.Fatalf("the cause is not first:\n%s", formatText(p, "", ds))
			}
			follow := 0
			for _, d := range ds[1:] {
				if !d.Consequence {
					t.Errorf("not tied to the cause: %s", formatText(p, "", []checker.Diagnostic{d}))
					continue
				}
				follow++
				if len(d.Related) == 0 || d.Related[0].Span != ds[0].Span || d.Related[0].File != checker.ManifestName {
					t.Errorf("the consequence does not point at the cause: %+v", d.Related)
				}
				if len(d.Fixes) != 1 || d.Fixes[0].Title != ds[0].Fixes[0].Title || !d.Fixes[0].Preferred {
					t.Errorf("the consequence's fix is not the cause's: %+v", d.Fixes)
				}
			}
			if follow > 1 {
				t.Errorf("%d follow-ons shown, want at most 1", follow)
			}
			fixed := applyEdits(t, string(p.ManifestFile.Text), ds[0].Fixes[0].Edits)
			q := loadManifest(t, nil, p.Dir, []byte(fixed))
			if after := checker.Run(q, All(), nil, nil); len(after) != 0 {
				t.Errorf("the cause's fix leaves:\n%s", formatText(q, "", after))
			}
		})
	}
}
