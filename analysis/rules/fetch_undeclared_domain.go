package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/analysis/js"
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
		allow := allowlist(p)
		type toolHost struct {
			tool *analysis.Tool
			host string
		}
		reported := map[toolHost]bool{}
		for _, pi := range loadPages(pass) {
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
				d := analysis.Diagnostic{File: pi.Rel, Span: span(c.Span), Related: capabilityRelated(p, "fetch")}
				switch r.Reason {
				case fetchurl.NotAllowed, fetchurl.IPLiteral:
					d.Message = fmt.Sprintf("%s is not in capabilities.fetch: the broker refuses this request", t.Host)
					d.Fixes = addToCapabilityFix(p, "fetch", t.Host)
				default:
					d.Message = r.Message + ": the broker refuses this request"
				}
				pass.Report(d)
				if r.Reason != fetchurl.NotAllowed && r.Reason != fetchurl.IPLiteral {
					continue
				}
				for _, tool := range pi.Tools {
					k := toolHost{tool, t.Host}
					if reported[k] {
						continue
					}
					reported[k] = true
					pass.Report(analysis.Diagnostic{
						File: analysis.ManifestName, Span: toolSpan(tool),
						Message: fmt.Sprintf("tool %s fetches %s (%s), which is not in capabilities.fetch", toolName(tool), t.Host, pi.Rel),
						Related: []analysis.Related{{File: pi.Rel, Span: span(c.Span), Message: "the fetch is here"}},
						Fixes:   d.Fixes,
					})
				}
			}
		}
	},
}
