package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// FetchUnusedDomain reports a capabilities.fetch domain no page uses.
var FetchUnusedDomain = &analysis.Rule{
	Code:     "fetch-unused-domain",
	Severity: analysis.Warning,
	Title:    "capabilities.fetch domain that no page fetches",
	Doc: "Every domain in `capabilities.fetch` widens what the plugin's tools may reach, and the install " +
		"review shows it. A domain that no page's URL names is reach nobody needs: remove it.\n\n" +
		"The rule stays silent whenever it cannot be sure: when a page fetches a URL whose host is only " +
		"known at run time (`fetch-dynamic-url`: that call may use any domain), when a page calls an `http` " +
		"method it cannot name (`http[name](…)`, `http.get(…)`), when a page does not parse, " +
		"or when a tool's page is missing.",
	Lang:   "json",
	Before: "\"fetch\": [\"api.openlibrary.org\", \"old-api.example.com\"]",
	After:  "\"fetch\": [\"api.openlibrary.org\"]",
	Fix:    "Remove the entry from `capabilities.fetch`.",
	Run: func(pass *analysis.Pass) {
		p := pass.Plugin
		if len(p.Manifest.Fetch) == 0 || p.SyntaxError != nil {
			return
		}
		if tn := p.Manifest.ToolsNode; tn != nil && tn.Kind != jsonpos.Array {
			return // manifest-schema: the tools are unknown
		}
		pages := loadPages(pass)
		bound := 0
		for _, pi := range pages {
			bound += len(pi.Tools)
		}
		for _, t := range p.Manifest.Tools {
			if page, ok := analysis.Str(t.Page); !ok || page == "" {
				return
			}
		}
		if bound != len(p.Manifest.Tools) {
			return // a page is missing: it may be the one that uses the domain
		}
		used := map[string]bool{}
		for _, pi := range pages {
			if hasPageErrors(pi) {
				return
			}
			for _, c := range pi.Page.Calls {
				if c.Object == "http" && c.Method != "fetch" {
					return // http[name](…), http.get(…): a fetch the checker cannot read
				}
			}
			for _, c := range fetchCalls(pi) {
				raw, ok := urlTarget(c.URL)
				if !ok {
					if c.URL != nil && !(len(c.URL.Value) > 0 && c.URL.Value[0] == '/') {
						return // a dynamic host may be any domain
					}
					continue
				}
				if t, _ := fetchurl.Parse(raw); t.Host != "" {
					used[t.Host] = true
				}
			}
		}
		for _, fc := range p.Manifest.Fetch {
			dom, ok := analysis.Str(fc.Domain)
			if !ok {
				continue
			}
			key, r := fetchurl.NormalizeDomain(dom)
			if r != nil || used[key] {
				continue
			}
			d := analysis.Diagnostic{
				File: analysis.ManifestName, Span: analysis.SpanOf(fc.Domain),
				Message: fmt.Sprintf("no page fetches %s: remove it from capabilities.fetch, it only widens the plugin's reach", dom),
				Tags:    []analysis.Tag{analysis.Unnecessary},
				Subject: key,
			}
			if e, err := jsonedit.RemoveElement(p.ManifestFile, fc.Node); err == nil {
				d.Fixes = []analysis.Fix{{Title: fmt.Sprintf("Remove %q from capabilities.fetch", dom), Edits: []analysis.Edit{e}}}
			}
			pass.Report(d)
		}
	},
}
