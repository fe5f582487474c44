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

// CredentialUnscoped warns about a credential sent to every fetch domain.
var CredentialUnscoped = &checker.Rule{
	Code:     "credential-unscoped",
	Severity: checker.Warning,
	Title:    "credential is sent to every fetch domain, or scoped to none",
	Doc: "A credential without `domains` is injected into requests to every domain in `capabilities.fetch`. " +
		"With more than one domain that usually leaks the secret to a service it was not issued for (the " +
		"Open Library key sent to a CDN). Say which domains it is for.\n\n" +
		"The fix proposes, first, the fetch domains whose name shares a word with the credential's name " +
		"(`openlibrary_key` → `api.openlibrary.org`), or the first declared domain when none does; the other " +
		"fixes scope it to one domain each.\n\n" +
		"A `domains` entry that is not in `capabilities.fetch` is reported too: the tool can never reach that " +
		"domain, so the credential is never sent there (usually a typo, or the fetch entry was renamed). " +
		"Scoping to a subdomain does not cover its parent or the other way round: hosts compare exactly.",
	Lang: "json",
	Before: "\"fetch\": [\"api.openlibrary.org\", \"covers.example-cdn.net\"],\n" +
		"\"credentials\": [{ \"name\": \"openlibrary_key\", \"into\": { \"header\": \"Authorization\", \"format\": \"Bearer {{secret}}\" } }]",
	After: "\"fetch\": [\"api.openlibrary.org\", \"covers.example-cdn.net\"],\n" +
		"\"credentials\": [{ \"name\": \"openlibrary_key\", \"into\": { \"header\": \"Authorization\", \"format\": \"Bearer {{secret}}\" },\n" +
		"                  \"domains\": [\"api.openlibrary.org\"] }]",
	Fix: "Add `\"domains\": [...]` to the credential: the domains matching its name, or the first fetch domain.",
	Run: func(pass *checker.Pass) {
		m := pass.Plugin.Manifest
		domains := reachOf(pass).Domains()
		reportScopeOutsideFetch(pass, domains)
		if len(domains) < 2 {
			return
		}
		for _, c := range m.Credentials {
			if c.Node == nil || c.Node.Kind != jsonpos.Object || c.Node.Get("domains") != nil {
				continue
			}
			name, _ := checker.Str(c.Name)
			at := c.Name
			if at == nil {
				at = c.Node
			}
			d := checker.Diagnostic{
				File: checker.ManifestName, Span: checker.SpanOf(at),
				Message: fmt.Sprintf("credential %q has no \"domains\", so it is sent to all %d fetch domains (%s); scope it to the ones it is for",
					name, len(domains), strings.Join(domains, ", ")),
			}
			best := guessDomains(name, domains)
			options := [][]string{best}
			for _, dom := range domains {
				if len(best) == 1 && best[0] == dom {
					continue
				}
				options = append(options, []string{dom})
			}
			for _, opt := range options {
				if len(d.Fixes) == 4 {
					break
				}
				e, err := jsonedit.InsertMember(pass.Plugin.ManifestFile, c.Node, "domains", jsonStrings(opt))
				if err != nil {
					break
				}
				d.Fixes = append(d.Fixes, checker.Fix{Title: "Send \"" + name + "\" only to " + strings.Join(opt, ", "), Edits: []checker.Edit{e}})
			}
			pass.Report(d)
		}
	},
}

// guessDomains returns the domains sharing a word (of 3+ letters, other
// than generic ones) with the credential name, or the first domain.
func guessDomains(name string, domains []string) []string {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) >= 3 && !genericWords[w] {
			words[w] = true
		}
	}
	var out []string
	for _, d := range domains {
		for _, label := range strings.FieldsFunc(strings.ToLower(d), func(r rune) bool { return r == '.' || r == '-' || r == ':' }) {
			if words[label] {
				out = append(out, d)
				break
			}
		}
	}
	if len(out) == 0 {
		out = domains[:1]
	}
	return out
}

var genericWords = map[string]bool{
	"key": true, "api": true, "token": true, "secret": true, "auth": true, "www": true,
	"com": true, "org": true, "net": true, "dev": true, "bearer": true, "access": true,
}

// reportScopeOutsideFetch warns about credential domains that no fetch
// entry declares (compared as the broker compares hosts), with a fix to
// the fetch domain it was probably meant to be. Domains that do not
// normalize are manifest-schema's.
func reportScopeOutsideFetch(pass *checker.Pass, fetch []string) {
	allow := fetchurl.NewAllowlist(fetch)
	for _, c := range pass.Plugin.Manifest.Credentials {
		name, _ := checker.Str(c.Name)
		for _, n := range c.Domains {
			s, ok := checker.Str(n)
			if !ok {
				continue
			}
			key, r := fetchurl.NormalizeDomain(s)
			if r != nil || allow[key] {
				continue
			}
			d := checker.Diagnostic{
				File: checker.ManifestName, Span: checker.SpanOf(n),
				Message: fmt.Sprintf("credential %q is scoped to %q, which is not in capabilities.fetch: it is never sent there", name, s),
				Subject: key,
			}
			if sug := suggest.Closest(s, fetch); sug != "" {
				d.Message += fmt.Sprintf(" (did you mean %q?)", sug)
				if e, err := jsonedit.Replace(pass.Plugin.ManifestFile, n, jsonString(sug)); err == nil {
					d.Fixes = []checker.Fix{{Title: "Scope it to " + sug, Edits: []checker.Edit{e}}}
				}
			}
			pass.Report(d)
		}
	}
}
