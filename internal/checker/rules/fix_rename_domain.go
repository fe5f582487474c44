package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// RenameDomainFix ranks the fixes of the fetch and credential rules by
// intent. A page fetching api.weather.example while capabilities.fetch
// lists only the unused api.wether.example is one typo, not two facts:
// adding the one and removing the other leaves the credential and the
// fixtures scoped to the typo. So when an undeclared host and an unused
// declared host are a typo or a lookalike apart, the preferred fix of
// every diagnostic involved is one rename of the declared entry wherever
// it appears: the fetch entry, each credential's domains, the fixtures'
// URLs. A credential scoped to a host the pages fetch is right, and is
// not offered the typo.
var RenameDomainFix = &checker.Rule{
	Code: "fix-rename-domain",
	Doc: "Ranks fixes across fetch-undeclared-domain, fetch-unused-domain and credential-unscoped: " +
		"a declared domain that no page fetches and an undeclared one a page fetches, a typo or a " +
		"lookalike apart, get one preferred fix that renames the declared domain everywhere (fetch entry, credential " +
		"`domains`, fixtures URLs). A credential's did-you-mean prefers hosts the pages fetch; adding a host that " +
		"only looks like a declared one (or an IP address, or a URL naming a declared host) is left to the author.",
	Refine: func(pass *checker.Pass, diags []checker.Diagnostic) []checker.Diagnostic {
		p := pass.Plugin
		if p.SyntaxError != nil {
			return diags
		}
		var undeclared []string // hosts pages fetch that are not declared, in order
		seen := map[string]bool{}
		unused := map[string]bool{}
		for _, d := range diags {
			switch d.Code {
			case FetchUndeclaredDomain.Code:
				for _, h := range strings.Fields(d.Subject) {
					if !seen[h] {
						seen[h] = true
						undeclared = append(undeclared, h)
					}
				}
			case FetchUnusedDomain.Code:
				if d.Subject != "" {
					unused[d.Subject] = true
				}
			}
		}
		// Pair each undeclared host with the unused declared one it is a
		// typo of; each declared entry is renamed at most once.
		type rename struct {
			from, to string
			fix      checker.Fix
		}
		renames := map[string]rename{} // by undeclared host and by declared host
		taken := map[string]bool{}
		for _, u := range undeclared {
			var cands []string
			for d := range unused {
				// A page host with more lookalike characters than the
				// declared one (api.weather-exarnple.com) is the suspect:
				// the declared entry is not renamed to it.
				if !taken[d] && sameShape(u, d) && confusables(u) <= confusables(d) {
					cands = append(cands, d)
				}
			}
			from := suggest.Closest(u, sortedStrings(cands))
			if from == "" {
				continue
			}
			fx, ok := renameDomain(p, from, u)
			if !ok {
				continue
			}
			taken[from] = true
			renames[u] = rename{from, u, fx}
			renames[from] = renames[u]
		}
		fetched := map[string]bool{}
		for _, u := range undeclared {
			fetched[u] = true
		}
		declared := reachOf(pass).Domains()
		// A call whose URL names a declared host where it is not the host
		// ("https://evil.example#api.x.org") goes elsewhere than it reads.
		misleading := map[string]string{}
		for _, d := range diags {
			if d.Code != FetchUndeclaredDomain.Code || d.File == checker.ManifestName || d.Subject == "" {
				continue
			}
			if why := namesDeclared(p, d, declared); why != "" {
				misleading[d.Subject] = why
			}
		}
		for i := range diags {
			d := &diags[i]
			switch {
			case d.Code == FetchUndeclaredDomain.Code:
				hosts := strings.Fields(d.Subject)
				for _, h := range hosts {
					why := suspiciousHost(h, declared)
					if why == "" {
						why = misleading[h]
					}
					if why != "" {
						for k := range d.Fixes {
							if strings.Contains(d.Fixes[k].Title, "\""+h+"\"") {
								d.Fixes[k].Ask = true
								d.Fixes[k].Title += " (" + why + ": check it is meant)"
							}
						}
					}
				}
				for j, h := range hosts {
					if rn, ok := renames[h]; ok {
						fx := rn.fix
						fx.Preferred = len(hosts) == 1
						d.Fixes = insertFix(d.Fixes, j, fx)
					}
				}
			case d.Code == FetchUnusedDomain.Code:
				if rn, ok := renames[d.Subject]; ok {
					fx := rn.fix
					fx.Preferred = true
					d.Fixes = insertFix(d.Fixes, 0, fx)
					d.Message += fmt.Sprintf(" (a page fetches %s: a typo?)", rn.to)
				}
			case d.Code == CredentialUnscoped.Code && d.Subject != "" && !fetched[d.Subject] && len(unused) > 0:
				// A typo in the credential: prefer the declared host the
				// pages fetch over one the manifest lists for nothing.
				var used []string
				for _, h := range declared {
					if !unused[h] {
						used = append(used, h)
					}
				}
				if h := suggest.Closest(d.Subject, used); h != "" && !strings.Contains(d.Message, fmt.Sprintf("(did you mean %q?)", h)) {
					if n := credentialDomainNode(p, d.Span); n != nil {
						if e, err := jsonedit.Replace(p.ManifestFile, n, jsonString(h)); err == nil {
							d.Message = scopeMessage(d.Message) + fmt.Sprintf(" (did you mean %q, which the pages fetch?)", h)
							d.Fixes = []checker.Fix{{Title: "Scope it to " + h, Edits: []checker.Edit{e}, Preferred: true}}
						}
					}
				}
			case d.Code == CredentialUnscoped.Code && d.Subject != "" && fetched[d.Subject]:
				// The credential names a host the pages fetch: the
				// credential is right and capabilities.fetch is not.
				d.Message = scopeMessage(d.Message)
				if rn, ok := renames[d.Subject]; ok {
					fx := rn.fix
					fx.Preferred = true
					d.Message += fmt.Sprintf("; the pages fetch %s, and capabilities.fetch has %q: rename it", d.Subject, rn.from)
					d.Fixes = []checker.Fix{fx}
				} else {
					d.Message += fmt.Sprintf("; the pages fetch %s: declare it in capabilities.fetch", d.Subject)
					d.Fixes = addToCapabilityFix(p, "fetch", d.Subject)
					if len(d.Fixes) == 1 {
						d.Fixes[0].Preferred = true
					}
				}
			}
		}
		return diags
	},
}

// suspiciousHost says why adding host u to capabilities.fetch should be
// the author's decision, not an automatic fix: an IP literal, a port, a
// name that extends a declared host (api.x.org.evil.example), or one a
// typo or lookalike away from a declared host (the page has the typo).
func suspiciousHost(u string, declared []string) string {
	name := u
	if i := strings.LastIndexByte(u, ':'); i >= 0 && !strings.HasSuffix(u, "]") {
		name = u[:i]
	}
	if strings.HasPrefix(u, "[") || strings.Trim(name, "0123456789.") == "" {
		return "an IP address"
	}
	for _, d := range declared {
		switch {
		case strings.HasPrefix(u, d+"."):
			return "it extends the declared " + d
		case suggest.Lookalike(u, d):
			return "it looks like the declared " + d
		case name != u && name == d:
			return "another port of the declared " + d
		case suggest.Closest(u, []string{d}) != "" && sameShape(u, d):
			return "one typo away from the declared " + d
		}
	}
	return ""
}

// confusables counts the lookalike sequences in a host.
func confusables(h string) int {
	return len(h) - len(suggest.Skeleton(h))
}

// namesDeclared says why the URL of a page's call reads as a declared
// host while it goes to another: the call's text names the declared
// host, not as its host.
func namesDeclared(p *checker.Plugin, d checker.Diagnostic, declared []string) string {
	f, err := p.ReadFile(d.File)
	if err != nil || d.Span.End > len(f.Text) || d.Span.Start > d.Span.End {
		return ""
	}
	call := strings.ToLower(string(f.Text[d.Span.Start:d.Span.End]))
	for _, dom := range declared {
		if dom != d.Subject && strings.Contains(call, dom) {
			return "the URL names the declared " + dom + " but goes to " + d.Subject
		}
	}
	return ""
}

// credentialDomainNode is the credential domains entry at span.
func credentialDomainNode(p *checker.Plugin, span checker.Span) *jsonpos.Node {
	for _, c := range p.Manifest.Credentials {
		for _, n := range c.Domains {
			if checker.SpanOf(n) == span {
				return n
			}
		}
	}
	return nil
}

// sameShape keeps the rename for hosts that differ by a typo inside one
// name: same number of labels and the same top-level label, so
// api.x.com never becomes x.com or api.x.net.
func sameShape(a, b string) bool {
	la, lb := strings.Split(a, "."), strings.Split(b, ".")
	return len(la) == len(lb) && la[len(la)-1] == lb[len(lb)-1]
}

// renameDomain is the fix renaming declared host from to to everywhere:
// the capabilities.fetch entries, the credentials' domains and the URLs
// of fixtures.json. The title names what it touches.
func renameDomain(p *checker.Plugin, from, to string) (checker.Fix, bool) {
	var edits []checker.Edit
	where := []string{"capabilities.fetch"}
	for _, fc := range p.Manifest.Fetch {
		if s, ok := checker.Str(fc.Domain); ok && normalizedDomain(s) == from {
			e, err := jsonedit.Replace(p.ManifestFile, fc.Domain, jsonString(to))
			if err != nil {
				return checker.Fix{}, false
			}
			edits = append(edits, e)
		}
	}
	if len(edits) == 0 {
		return checker.Fix{}, false
	}
	for _, c := range p.Manifest.Credentials {
		hit := false
		for _, n := range c.Domains {
			if s, ok := checker.Str(n); ok && normalizedDomain(s) == from {
				if e, err := jsonedit.Replace(p.ManifestFile, n, jsonString(to)); err == nil {
					edits = append(edits, e)
					hit = true
				}
			}
		}
		if name, _ := checker.Str(c.Name); hit {
			where = append(where, fmt.Sprintf("credential %q", name))
		}
	}
	if p.FixturesFile != nil && p.FixturesError == nil {
		n := 0
		for _, f := range p.FixturesRoot.Get("fnFetch").Children() {
			u := f.Get("url")
			raw, ok := checker.Str(u)
			if !ok {
				continue
			}
			if t, r := fetchurl.Parse(raw); r != nil || t.Host != from {
				continue
			}
			i := strings.Index(strings.ToLower(raw), "://"+from)
			if i < 0 {
				continue
			}
			nu := raw[:i+3] + to + raw[i+3+len(from):]
			if e, err := jsonedit.Replace(p.FixturesFile, u, jsonString(nu)); err == nil {
				edits = append(edits, e)
				n++
			}
		}
		if n > 0 {
			where = append(where, checker.FixturesName)
		}
	}
	return checker.Fix{
		Title: fmt.Sprintf("Rename %q to %q in %s", from, to, joinAnd(where)),
		Edits: edits,
	}, true
}

func normalizedDomain(dom string) string {
	k, r := fetchurl.NormalizeDomain(dom)
	if r != nil {
		return ""
	}
	return k
}

// scopeMessage drops credential-unscoped's did-you-mean, which points at a
// declared host when the pages fetch the one the credential names.
func scopeMessage(m string) string {
	if i := strings.Index(m, " (did you mean "); i >= 0 {
		return m[:i]
	}
	return m
}

func insertFix(fs []checker.Fix, at int, fx checker.Fix) []checker.Fix {
	if fx.Preferred {
		for i := range fs {
			fs[i].Preferred = false
		}
	}
	at = min(at, len(fs))
	out := append([]checker.Fix{}, fs[:at]...)
	out = append(out, fx)
	return append(out, fs[at:]...)
}

func joinAnd(ss []string) string {
	if len(ss) <= 1 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}

func sortedStrings(ss []string) []string {
	for i := 1; i < len(ss); i++ {
		for j := i; j > 0 && ss[j] < ss[j-1]; j-- {
			ss[j], ss[j-1] = ss[j-1], ss[j]
		}
	}
	return ss
}
