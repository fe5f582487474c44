package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// FetchUndeclaredDomain reports an http.fetch whose host the broker
// refuses: not in capabilities.fetch, or not a host at all (userinfo,
// trailing dot, IDN, a relative URL).
var FetchUndeclaredDomain = &checker.Rule{
	Code:     "fetch-undeclared-domain",
	Severity: checker.Error,
	Title:    "fetch to a domain not in capabilities.fetch",
	Doc: "The sandbox reaches the network only through `http.fetch`, and the broker refuses every host that " +
		"`capabilities.fetch` does not list, before a socket opens. The host is compared exactly, lower-cased, " +
		"with the port when it is not 443: `api.x.com` does not admit `x.com`, `a.api.x.com` or " +
		"`api.x.com.evil.net`. The URL is read statically: string and template literals, `+`, `const` names, " +
		"`new URL(path, base)`, and everything listed under `fetch-dynamic-url`; a URL that may be one of several " +
		"(a ternary, a region switch, a helper called with several bases) is checked for each; a URL whose host is " +
		"only known at run time gets `fetch-dynamic-url` instead.\n\n" +
		"It is reported on the call, in the page or in the file it imports (`code/lib/client.ts`, checked for every " +
		"tool whose page imports it), and on each such tool in plugin.json. URLs that are not a host at " +
		"all are reported here too, without a fix: user information (`https://a.com@b.com` goes to b.com), a " +
		"trailing dot, a non-ASCII host, a relative URL. Checker and broker share one definition of a host " +
		"(`internal/fetchurl`), so they never disagree.\n\n" +
		"Exploration (below) adds what the code does not show: a host a run reached at a call is reported at that " +
		"call like a statically found one, and the message names the input that reached it " +
		"(\"reached with input {\"region\":\"eu\"}\"), so `plugin-lsp run --input '{\"region\":\"eu\"}' DIR TOOL` " +
		"shows the same request refused.",
	Lang:   "ts",
	Before: "// capabilities.fetch: [\"api.openlibrary.org\"]\nawait http.fetch(\"https://covers.openlibrary.org/b/id/1-S.jpg\");",
	After:  "// capabilities.fetch: [\"api.openlibrary.org\", \"covers.openlibrary.org\"]\nawait http.fetch(\"https://covers.openlibrary.org/b/id/1-S.jpg\");",
	Fix:    "Add the domain to `capabilities.fetch` (creating `capabilities` and `fetch` when absent), keeping the manifest's formatting.",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.SyntaxError != nil {
			return // what is declared after the error is unknown
		}
		if n := p.Manifest.FetchNode; n != nil && n.Kind != jsonpos.Array {
			return // manifest-schema: capabilities.fetch is not a list
		}
		allow := allowlist(p)
		out := newDedup(pass)
		for _, pi := range loadPages(pass) {
			var hosts []string // undeclared hosts of this page, first call first
			calls := map[string]checker.Related{}
			staticAt := map[string]bool{} // file, call start, host: reported from the code
			for _, c := range fetchCalls(pi) {
				file := callFile(pi, c)
				perCall := map[string]bool{} // one finding per host and call
				distinct := map[string]bool{}
				for _, t := range urlTargets(c.URL) {
					distinct[t.host] = true
				}
				for _, t := range urlTargets(c.URL) {
					if t.raw == "" {
						if t.relative {
							out.report(checker.Diagnostic{File: file, Span: c.Span,
								Message: fmt.Sprintf("the URL starts with %q, a relative URL: the broker only fetches absolute https:// URLs", t.prefix)})
						}
						continue
					}
					ft, r := allow.Check(t.raw)
					if r == nil || r.Reason == fetchurl.NotHTTPS {
						continue // allowed, or fetch-not-https's business
					}
					d := checker.Diagnostic{File: file, Span: c.Span, Related: append(capabilityRelated(p, "fetch"), toolsRelated(pi)...)}
					switch r.Reason {
					case fetchurl.NotAllowed, fetchurl.IPLiteral:
						if perCall[ft.Host] {
							continue
						}
						perCall[ft.Host] = true
						staticAt[fmt.Sprintf("%s:%d %s", file, c.Span.Start, ft.Host)] = true
						d.Message = fmt.Sprintf("%s is not in capabilities.fetch: the broker refuses this request", ft.Host)
						if len(distinct) > 1 {
							d.Message = fmt.Sprintf("%s is not in capabilities.fetch: the broker refuses this request when the URL is %s", ft.Host, shortURL(t.prefix, t.value.Kind == jspage.Prefix))
						}
						d.Fixes = addToCapabilityFix(p, "fetch", ft.Host)
						d.Subject = ft.Host
						if sp, ok := pi.Page.Via[file]; ok && file != pi.Rel {
							// Shown where the page imports the file too.
							out.report(checker.Diagnostic{File: pi.Rel, Span: sp, Severity: checker.Error,
								Message: fmt.Sprintf("%s is not in capabilities.fetch: %s fetches it for this page, and the broker refuses the request", ft.Host, file),
								Related: []checker.Related{{File: file, Span: c.Span, Message: "fetches " + ft.Host}},
								Fixes:   addToCapabilityFix(p, "fetch", ft.Host)})
						}
						if _, seen := calls[ft.Host]; !seen {
							hosts = append(hosts, ft.Host)
							calls[ft.Host] = checker.Related{File: file, Span: c.Span, Message: "fetches " + ft.Host}
						}
					default:
						d.Message = r.Message + ": the broker refuses this request"
					}
					out.report(d)
				}
			}
			// What exploration reached: a host the code did not show (a URL
			// built by a class, a registry, an injected fetch) is reported
			// at the call that made it, with the input that got there.
			explored := exploredCalls(pass, pi)
			dynAt := map[string]bool{} // calls whose host a run built from the input
			for _, ec := range explored {
				if ec.F.Dynamic {
					dynAt[fmt.Sprintf("%s:%d", ec.File, ec.Span.Start)] = true
				}
			}
			for _, ec := range explored {
				host, ok := undeclaredExplored(allow, ec.F)
				if !ok || dynAt[fmt.Sprintf("%s:%d", ec.File, ec.Span.Start)] || staticAt[fmt.Sprintf("%s:%d %s", ec.File, ec.Span.Start, host)] {
					continue
				}
				staticAt[fmt.Sprintf("%s:%d %s", ec.File, ec.Span.Start, host)] = true
				out.report(checker.Diagnostic{File: ec.File, Span: ec.Span,
					Message: fmt.Sprintf("%s is not in capabilities.fetch: the broker refuses this request (exploring tool %s, %s)", host, ec.Tool, reachedWith(ec.F)),
					Related: append(capabilityRelated(p, "fetch"), toolsRelated(pi)...),
					Fixes:   addToCapabilityFix(p, "fetch", host), Subject: host})
				if _, seen := calls[host]; !seen {
					hosts = append(hosts, host)
					calls[host] = checker.Related{File: ec.File, Span: ec.Span, Message: "fetches " + host}
				}
			}
			if len(hosts) == 0 {
				continue
			}
			// The tool side: one diagnostic per tool, one fix per domain.
			var related []checker.Related
			var fixes []checker.Fix
			for _, h := range hosts {
				related = append(related, calls[h])
				fixes = append(fixes, addToCapabilityFix(p, "fetch", h)...)
			}
			what := hosts[0] + ", which is"
			if len(hosts) > 1 {
				what = strings.Join(hosts, ", ") + ", which are"
			}
			for _, tool := range pi.Tools {
				pass.Report(checker.Diagnostic{
					File: checker.ManifestName, Span: toolSpan(tool),
					Message: fmt.Sprintf("tool %s fetches %s not in capabilities.fetch (%s)", toolName(tool), what, pi.Rel),
					Related: related, Fixes: fixes, Subject: strings.Join(hosts, " "),
				})
			}
		}
	},
}

// shortURL shows a URL (or its known start, followed by …) in a message.
func shortURL(s string, prefix bool) string {
	if len(s) > 60 {
		s, prefix = s[:57], true
	}
	if prefix {
		return s + "…"
	}
	return s
}
