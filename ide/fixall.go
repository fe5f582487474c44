package ide

import (
	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/fixes"
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
type Recheck func(manifest []byte) ([]analysis.Diagnostic, error)

// AddAllCapabilities applies the preferred capability fixes of the
// diagnostics in file rel (a rename of a typo rather than an add, never a
// fix that edits more than plugin.json) and returns how many it applied
// and the resulting plugin.json. The fixes of one check are merged into
// one edit set (fixes.Merge); the plugin is checked again only when some
// of them conflict (two first entries of an empty list, two new members
// of one object), and then the fixes of that check are merged, for at
// most 64 checks.
func (sn *Snapshot) AddAllCapabilities(rel string, recheck Recheck) (int, []byte) {
	if sn.Plugin == nil {
		return 0, nil
	}
	mf, err := sn.Plugin.ReadFile(analysis.ManifestName)
	if err != nil {
		return 0, nil
	}
	text := append([]byte(nil), mf.Text...)
	diags := sn.Diags
	n := 0
	for checks := 0; ; checks++ {
		var fxs []analysis.Fix
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
		if len(left) == 0 || checks == 64 {
			break
		}
		if diags, err = recheck(text); err != nil {
			break
		}
	}
	return n, text
}

func manifestOnly(fx analysis.Fix) bool {
	if len(fx.Edits) == 0 {
		return false
	}
	for _, e := range fx.Edits {
		if e.File != analysis.ManifestName || e.Create {
			return false
		}
	}
	return true
}
