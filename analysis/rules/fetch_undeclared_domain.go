package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/analysis/js"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// FetchUndeclaredDomain reports an http.fetch whose host the broker
// refuses: not in capabilities.fetch, or not a host at all (userinfo,
// trailing dot, IDN, a relative URL).
var FetchUndeclaredDomain = &analysis.Rule{
	Code:     "fetch-undeclared-domain",
	Severity: analysis.Error,
	Title:    "fetch to a domain not in capabilities.fetch",
	Doc: "The sandbox reaches the network only through `http.fetch`, and the broker refuses every host that " +
		"`capabilities.fetch` does not list, before a socket opens. The host is compared exactly, lower-cased, " +
		"with the port when it is not 443: `api.x.com` does not admit `x.com`, `a.api.x.com` or " +
		"`api.x.com.evil.net`. The URL is read statically: string and template literals, `+`, `const` names, " +
		"`new URL(path, base)`; a URL whose host is only known at run time gets `fetch-dynamic-url` instead.\n\n" +
		"It is reported on the call in the page, and on the tool in plugin.json. URLs that are not a host at " +
		"all are reported here too, without a fix: user information (`https://a.com@b.com` goes to b.com), a " +
		"trailing dot, a non-ASCII host, a relative URL. Checker and broker share one definition of a host " +
		"(`analysis/fetchurl`), so they never disagree.",
	Lang:   "ts",
	Before: "// capabilities.fetch: [\"api.openlibrary.org\"]\nawait http.fetch(\"https://covers.openlibrary.org/b/id/1-S.jpg\");",
	After:  "// capabilities.fetch: [\"api.openlibrary.org\", \"covers.openlibrary.org\"]\nawait http.fetch(\"https://covers.openlibrary.org/b/id/1-S.jpg\");",
	Fix:    "Add the domain to `capabilities.fetch` (creating `capabilities` and `fetch` when absent), keeping the manifest's formatting.",
	Run: func(pass *analysis.Pass) {
		p := pass.Plugin
		if p.SyntaxError != nil {
			return // what is declared after the error is unknown
		}
		if n := p.Manifest.FetchNode; n != nil && n.Kind != jsonpos.Array {
			return // manifest-schema: capabilities.fetch is not a list
		}
		allow := allowlist(p)
		for _, pi := range loadPages(pass) {
			var hosts []string // undeclared hosts of this page, first call first
			calls := map[string]analysis.Span{}
			for _, c := range fetchCalls(pi) {
				raw, ok := urlTarget(c.URL)
				if !ok {
					if c.URL != nil && c.URL.Kind == js.Prefix && len(c.URL.Value) > 0 && c.URL.Value[0] == '/' && (len(c.URL.Value) < 2 || c.URL.Value[1] != '/') {
						pass.Report(analysis.Diagnostic{File: pi.Rel, Span: span(c.Span),
							Message: fmt.Sprintf("the URL starts with %q, a relative URL: the broker only fetches absolute https:// URLs", c.URL.Value)})
					}
					continue
				}
				t, r := allow.Check(raw)
				if r == nil || r.Reason == fetchurl.NotHTTPS {
					continue // allowed, or fetch-not-https's business
				}
				d := analysis.Diagnostic{File: pi.Rel, Span: span(c.Span), Related: append(capabilityRelated(p, "fetch"), toolsRelated(pi)...)}
				switch r.Reason {
				case fetchurl.NotAllowed, fetchurl.IPLiteral:
					d.Message = fmt.Sprintf("%s is not in capabilities.fetch: the broker refuses this request", t.Host)
					d.Fixes = addToCapabilityFix(p, "fetch", t.Host)
					d.Subject = t.Host
					if _, seen := calls[t.Host]; !seen {
						hosts = append(hosts, t.Host)
						calls[t.Host] = span(c.Span)
					}
				default:
					d.Message = r.Message + ": the broker refuses this request"
				}
				pass.Report(d)
			}
			if len(hosts) == 0 {
				continue
			}
			// The tool side: one diagnostic per tool, one fix per domain.
			var related []analysis.Related
			var fixes []analysis.Fix
			for _, h := range hosts {
				related = append(related, analysis.Related{File: pi.Rel, Span: calls[h], Message: "fetches " + h})
				fixes = append(fixes, addToCapabilityFix(p, "fetch", h)...)
			}
			what := hosts[0] + ", which is"
			if len(hosts) > 1 {
				what = strings.Join(hosts, ", ") + ", which are"
			}
			for _, tool := range pi.Tools {
				pass.Report(analysis.Diagnostic{
					File: analysis.ManifestName, Span: toolSpan(tool),
					Message: fmt.Sprintf("tool %s fetches %s not in capabilities.fetch (%s)", toolName(tool), what, pi.Rel),
					Related: related, Fixes: fixes, Subject: strings.Join(hosts, " "),
				})
			}
		}
	},
}
