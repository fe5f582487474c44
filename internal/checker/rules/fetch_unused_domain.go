package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// FetchUnusedDomain reports a capabilities.fetch domain no page uses.
var FetchUnusedDomain = &checker.Rule{
	Code:     "fetch-unused-domain",
	Severity: checker.Warning,
	Title:    "capabilities.fetch domain that no page fetches",
	Doc: "Every domain in `capabilities.fetch` widens what the plugin's tools may reach, and the install " +
		"review shows it. A domain that no page's URL names is reach nobody needs: remove it.\n\n" +
		"Every page is read with the files it imports, so a domain fetched only in `code/lib/client.ts` counts " +
		"as used. A call whose host is only known at run time keeps the rule silent for the domains it could " +
		"reach: all of them when nothing of its host is known (`https://${input.site}…`), only those starting with " +
		"its known part otherwise (`\"https://api.\" + region` spares `api.eu.x.com`, not `files.x.com`). The rule " +
		"is also silent when a page calls an `http` " +
		"method it cannot name (`http[name](…)`, `http.get(…)`), when a page does not parse, " +
		"or when a tool's page is missing.",
	Lang:   "json",
	Before: "\"fetch\": [\"api.openlibrary.org\", \"old-api.example.com\"]",
	After:  "\"fetch\": [\"api.openlibrary.org\"]",
	Fix:    "Remove the entry from `capabilities.fetch`.",
	Run: func(pass *checker.Pass) {
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
			if page, ok := checker.Str(t.Page); !ok || page == "" {
				return
			}
		}
		if bound != len(p.Manifest.Tools) {
			return // a page is missing: it may be the one that uses the domain
		}
		used := map[string]bool{}
		var reach []string    // known starts of URLs whose host is unknown: domains they may reach
		var suffixes []string // known ends of explored hosts built from the input
		anyHost := false
		for _, pi := range pages {
			if hasPageErrors(pi) {
				return
			}
			for _, c := range pi.Page.Calls {
				if c.Object == "http" && c.Method != "fetch" {
					return // http[name](…), http.get(…): a fetch the checker cannot read
				}
			}
			// A call exploration ran, whose host no run built from the
			// input, reaches what the runs saw there (FetchReach).
			ran, dyn := map[int]bool{}, map[int]bool{}
			for _, ec := range exploredCalls(pass, pi) {
				if ec.Call != nil {
					ran[ec.Call.Span.Start] = true
					dyn[ec.Call.Span.Start] = dyn[ec.Call.Span.Start] || ec.F.Dynamic
				}
			}
			for _, c := range fetchCalls(pi) {
				for _, t := range urlTargets(c.URL) {
					switch {
					case t.host != "":
						used[t.host] = true
					case t.relative:
					case ran[c.Span.Start] && !dyn[c.Span.Start]:
					default:
						start := t.prefix
						if i := strings.Index(start, "://"); i >= 0 {
							start = start[i+3:]
						} else {
							start = ""
						}
						if start == "" {
							anyHost = true
						} else {
							reach = append(reach, strings.ToLower(start))
						}
					}
				}
			}
		}
		// What exploration reached is used; a host built from the input
		// (a marker) may be any domain ending as it does.
		for _, e := range pass.Config.Explored {
			for _, f := range e.Fetches {
				switch {
				case !f.Dynamic && f.Host != "":
					used[f.Host] = true
				case f.Dynamic && strings.Contains(f.Host, "."):
					suffixes = append(suffixes, markerSuffix(f.Host))
				case f.Dynamic:
					anyHost = true
				}
			}
		}
		if anyHost {
			return // a call may reach any domain
		}
		for _, fc := range p.Manifest.Fetch {
			dom, ok := checker.Str(fc.Domain)
			if !ok {
				continue
			}
			key, r := fetchurl.NormalizeDomain(dom)
			if r != nil || used[key] || mayReach(reach, key) || mayEnd(suffixes, key) {
				continue
			}
			d := checker.Diagnostic{
				File: checker.ManifestName, Span: checker.SpanOf(fc.Domain),
				Message: fmt.Sprintf("no page fetches %s: remove it from capabilities.fetch, it only widens the plugin's reach", dom),
				Tags:    []checker.Tag{checker.Unnecessary},
				Subject: key,
			}
			if e, err := jsonedit.RemoveElement(p.ManifestFile, fc.Node); err == nil {
				d.Fixes = []checker.Fix{{Title: fmt.Sprintf("Remove %q from capabilities.fetch", dom), Edits: []checker.Edit{e}}}
			}
			pass.Report(d)
		}
	},
}

// mayReach reports whether a URL whose host starts with one of the known
// starts may name domain.
func mayReach(starts []string, domain string) bool {
	for _, s := range starts {
		if strings.HasPrefix(domain, s) {
			return true
		}
	}
	return false
}

// markerSuffix is the known end of a host built from an input marker
// ("zqmark1.api.x.com" → ".api.x.com"; "" when the marker ends it).
func markerSuffix(host string) string {
	i := strings.LastIndex(host, checker.ExploreMarker)
	if i < 0 {
		return ""
	}
	rest := host[i+len(checker.ExploreMarker):]
	for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
		rest = rest[1:]
	}
	return rest
}

func mayEnd(suffixes []string, domain string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(domain, s) {
			return true
		}
	}
	return false
}
