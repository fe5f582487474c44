package ide

import (
	"sort"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// capabilityCodes are the diagnostics whose fixes "add all missing
// capabilities" applies together.
var capabilityCodes = map[string]bool{
	"fetch-undeclared-domain": true,
	"fetch-refused-at-run":    true,
	"host-undeclared-method":  true,
}

// IsCapabilityCode reports whether a diagnostic of this code is a missing
// capability, which AddAllCapabilities fixes.
func IsCapabilityCode(code string) bool { return capabilityCodes[code] }

// Recheck checks the plugin again with plugin.json replaced by manifest
// and returns the diagnostics.
type Recheck func(manifest []byte) ([]checker.Diagnostic, error)

// AddAllCapabilities applies the preferred capability fixes of the
// diagnostics in file rel (a rename of a typo rather than an add, never a
// fix that edits more than plugin.json) and returns how many it applied
// and the resulting plugin.json (AddAllEdit makes it an edit). The fixes of one check are merged into
// one edit set (fixes.Merge); the plugin is checked again only when some
// of them conflict (two first entries of an empty list, two new members
// of one object), and then the fixes of that check are merged, for at
// most 64 checks.
// A nil recheck merges one check's fixes only.
func (vw *View) AddAllCapabilities(rel string, recheck Recheck) (int, []byte) {
	if vw.Plugin == nil {
		return 0, nil
	}
	mf, err := vw.Plugin.ReadFile(checker.ManifestName)
	if err != nil {
		return 0, nil
	}
	text := append([]byte(nil), mf.Text...)
	diags := vw.Diags
	n := 0
	for checks := 0; ; checks++ {
		var fxs []checker.Fix
		for i := range diags {
			d := &diags[i]
			if fx := d.PreferredFix(); d.File == rel && capabilityCodes[d.Code] && fx != nil && manifestOnly(*fx) {
				fxs = append(fxs, *fx)
			}
		}
		edits, taken, left := fixes.Merge(fxs)
		if taken == 0 {
			break
		}
		next, err := fixes.ApplyText(text, edits)
		if err != nil {
			break
		}
		text, n = next, n+taken
		if len(left) == 0 || checks == 64 || recheck == nil {
			break
		}
		if diags, err = recheck(text); err != nil {
			break
		}
	}
	return n, text
}

func manifestOnly(fx checker.Fix) bool {
	if len(fx.Edits) == 0 {
		return false
	}
	for _, e := range fx.Edits {
		if e.File != checker.ManifestName || e.Create {
			return false
		}
	}
	return true
}

// AddAllEdit is the edit that replaces plugin.json with the text
// AddAllCapabilities returned.
func (vw *View) AddAllEdit(text []byte) checker.Edit {
	end := 0
	if vw.Plugin != nil {
		if mf, err := vw.Plugin.ReadFile(checker.ManifestName); err == nil {
			end = len(mf.Text)
		}
	}
	return checker.Edit{File: checker.ManifestName, Span: checker.Span{End: end}, NewText: string(text)}
}

// FixAll is `plugin-lsp check --fix` on the plugin in dir (o.FS: the
// editor's buffers over the disk): how many fixes it applied, and its
// result as edits, each replacing (or creating) a whole file.
func FixAll(dir string, o fixes.Options) (int, []checker.Edit, error) {
	res, err := fixes.FixAll(dir, o)
	if err != nil || len(res.Applied) == 0 {
		return 0, nil, err
	}
	rels := make([]string, 0, len(res.After))
	for rel := range res.After {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	var edits []checker.Edit
	for _, rel := range rels {
		before := res.Before[rel]
		if before == nil {
			edits = append(edits, checker.Edit{File: rel, Create: true, NewText: string(res.After[rel])})
			continue
		}
		edits = append(edits, checker.Edit{File: rel, Span: checker.Span{End: len(before)}, NewText: string(res.After[rel])})
	}
	return len(res.Applied), edits, nil
}
