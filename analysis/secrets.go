package analysis

import (
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// minSecretLen is the shortest dev secret hidden in messages: shorter
// values ("1", "ab") would mangle ordinary words.
const minSecretLen = 4

// secretRedactor replaces the values of fixtures.json's "secrets" with
// ••••(name), the broker's mark; nil when there are none.
func secretRedactor(root *jsonpos.Node) *strings.Replacer {
	secrets := root.Get("secrets")
	if secrets == nil || secrets.Kind != jsonpos.Object {
		return nil
	}
	type pair struct{ value, name string }
	var ps []pair
	for _, m := range secrets.Members {
		if v, ok := Str(m); ok && len(v) >= minSecretLen {
			ps = append(ps, pair{v, m.Key})
		}
	}
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].value) > len(ps[j].value) })
	var args []string
	for _, p := range ps {
		args = append(args, p.value, "••••("+p.name+")")
	}
	return strings.NewReplacer(args...)
}

// redactSecrets hides the dev secrets of fixtures.json in what check and
// the editor print: messages, related messages and fix titles (a page
// URL holding a secret is quoted in a message). Edits keep their text:
// they change the files, where the secret already is.
func redactSecrets(p *Plugin, diags []Diagnostic) {
	if p == nil || p.FixturesRoot == nil {
		return
	}
	r := secretRedactor(p.FixturesRoot)
	if r == nil {
		return
	}
	for i := range diags {
		d := &diags[i]
		d.Message = r.Replace(d.Message)
		for j := range d.Related {
			d.Related[j].Message = r.Replace(d.Related[j].Message)
		}
		for j := range d.Fixes {
			d.Fixes[j].Title = r.Replace(d.Fixes[j].Title)
		}
	}
}
