package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// RootCause ties follow-on diagnostics to the one that causes them, so the
// author reads the cause first and fixes it once. Two causes are known:
//
//   - a misspelt key ("capabilites", "fecth"): the section it holds is
//     ignored, so every page call it would have allowed is reported;
//   - a fetch entry written as a URL ("https://api.x.org/v1"): it grants
//     nothing, so every fetch of that host is refused and a credential
//     scoped to it is never sent.
//
// The first follow-on stays, marked as a consequence (it sorts after the
// cause, points at it in its related information, and its fix is the
// cause's fix); the others are counted in the cause's message.
var RootCause = &checker.Rule{
	Code: "root-cause",
	Doc: "Ties the diagnostics that follow from a misspelt key or a malformed fetch entry to that cause: " +
		"the cause sorts first, one follow-on stays (tagged, pointing at the cause, with the cause's fix), " +
		"the others are counted in the cause's message.",
	Refine: func(pass *checker.Pass, diags []checker.Diagnostic) []checker.Diagnostic {
		p := pass.Plugin
		if p.SyntaxError != nil || p.Manifest.Root == nil {
			return diags
		}
		type cause struct {
			at      int
			follows func(d *checker.Diagnostic) bool
			what    string
		}
		var causes []cause
		for i := range diags {
			d := &diags[i]
			if d.Code != ManifestSchema.Code || d.Subject == "" || d.File != checker.ManifestName {
				continue
			}
			if m := memberAtKey(p.Manifest.Root, d.Span); m != nil {
				codes := keyConsequences(m, d.Subject)
				if len(codes) == 0 {
					continue
				}
				causes = append(causes, cause{i, func(x *checker.Diagnostic) bool {
					return codes[x.Code] && (x.Code != CredentialUnscoped.Code || x.Subject != "")
				}, fmt.Sprintf("the misspelt key %q (did you mean %q?)", m.Key, d.Subject)})
				continue
			}
			if fn := p.Manifest.FetchNode; fn != nil && fn.Span.Start <= d.Span.Start && d.Span.End <= fn.Span.End {
				host := d.Subject
				causes = append(causes, cause{i, func(x *checker.Diagnostic) bool {
					switch x.Code {
					case FetchUndeclaredDomain.Code:
						return x.Subject == host
					case CredentialUnscoped.Code, FixtureUnused.Code:
						return x.Subject == host
					}
					return false
				}, fmt.Sprintf("the fetch entry that is not a bare domain (%s)", host)})
			}
		}
		if len(causes) == 0 {
			return diags
		}
		drop := map[int]bool{}
		for _, c := range causes {
			cd := &diags[c.at]
			kept, hidden := false, 0
			for i := range diags {
				x := &diags[i]
				if i == c.at || x.Consequence || drop[i] || !c.follows(x) {
					continue
				}
				if kept {
					drop[i] = true
					hidden++
					continue
				}
				kept = true
				x.Consequence = true
				x.Related = append([]checker.Related{{File: cd.File, Span: cd.Span, Message: "follows from " + c.what}}, x.Related...)
				x.Fixes = nil
				for _, fx := range cd.Fixes {
					fx.Preferred = true
					x.Fixes = append(x.Fixes, fx)
					break
				}
			}
			if hidden > 0 {
				cd.Message += fmt.Sprintf("; %d more %s follow from it", hidden, plural(hidden, "diagnostic", "diagnostics"))
			}
		}
		out := diags[:0:0]
		for i, d := range diags {
			if !drop[i] {
				out = append(out, d)
			}
		}
		return out
	},
}

// memberAtKey returns the member of the manifest's root or of its
// capabilities object whose key is at span.
func memberAtKey(root *jsonpos.Node, span checker.Span) *jsonpos.Node {
	for _, obj := range []*jsonpos.Node{root, root.Get("capabilities")} {
		if obj == nil || obj.Kind != jsonpos.Object {
			continue
		}
		for _, m := range obj.Members {
			if m.KeySpan == span {
				return m
			}
		}
	}
	return nil
}

// keyConsequences are the codes that follow when the member m, meant to
// be the key meant, is ignored.
func keyConsequences(m *jsonpos.Node, meant string) map[string]bool {
	codes := map[string]bool{}
	add := func(key string) {
		switch key {
		case "host":
			codes[HostUndeclaredMethod.Code] = true
		case "fetch":
			codes[FetchUndeclaredDomain.Code] = true
			codes[CredentialUnscoped.Code] = true // scoped outside the (missing) fetch list
			codes[FixtureUnused.Code] = true      // its fixtures' hosts are refused
		}
	}
	switch {
	case meant == "capabilities" && m.Parent != nil && m.Parent.Parent == nil:
		for _, k := range m.Members {
			add(k.Key)
		}
	case m.Parent != nil && m.Parent.Parent != nil && m.Parent.Key == "capabilities":
		add(meant)
	case meant == "sdk":
		codes[NativeSDKMissing.Code] = true
	}
	return codes
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
