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
		"its known part otherwise (`\"https://api.\" + region` spares `api.eu.x.com`, not `files.x.com`). With " +
		"exploration, a call the runs reached on a path the code does not show counts for what they saw there, " +
		"whichever tool ran it: a host a run built from the input spares the domains of its shape " +
		"(`https://${tenant}.eu.x.com` spares `a.eu.x.com`, not `eu.x.com` or `files.x.com`), and a call whose " +
		"runs only reached its known hosts keeps its unknown one (a next link the stubs never gave may name any " +
		"domain). The rule " +
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
		var reach []string  // known starts of URLs whose host is unknown: domains they may reach
		var shapes []string // explored hosts built from the input: domains of their shape
		anyHost := false
		// A call exploration ran (for any tool: a lib file's call is one
		// call, whichever page imports it) on a path the code does not
		// show (a host its static targets do not name, or one built from
		// the input) reaches what the runs saw there (FetchReach): its
		// hosts, and for a host a run built from the input, the domains
		// of that host's shape (below); its statically unknown host adds
		// nothing more. A call whose runs only saw its known hosts keeps
		// its unknown one: that path did not run (a next link the stubs
		// never gave).
		known := map[string]map[string]bool{} // call → its static hosts
		for _, pi := range pages {
			for _, c := range fetchCalls(pi) {
				k := fmt.Sprintf("%s:%d", callFile(pi, c), c.Span.Start)
				if known[k] == nil {
					known[k] = map[string]bool{}
				}
				for _, t := range urlTargets(c.URL) {
					if t.host != "" {
						known[k][t.host] = true
					}
				}
			}
		}
		ranUnknown := map[string]bool{}
		for _, pi := range pages {
			for _, ec := range exploredCalls(pass, pi) {
				if ec.Call == nil {
					continue
				}
				k := fmt.Sprintf("%s:%d", ec.File, ec.Call.Span.Start)
				if ec.F.Dynamic || ec.F.Host != "" && !known[k][ec.F.Host] {
					ranUnknown[k] = true
				}
			}
		}
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
				for _, t := range urlTargets(c.URL) {
					switch {
					case t.host != "":
						used[t.host] = true
					case t.relative:
					case ranUnknown[fmt.Sprintf("%s:%d", callFile(pi, c), c.Span.Start)]:
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
		// (a marker) may be any domain of its shape: the marker stands
		// for any text, the rest is what the code wrote around it.
		for _, e := range pass.Config.Explored {
			for _, f := range e.Fetches {
				switch {
				case !f.Dynamic && f.Host != "":
					used[f.Host] = true
				case f.Dynamic && strings.Trim(markerFree(f.Host), ".-:0123456789") != "" &&
					strings.Count(f.Host, checker.ExploreMarker) <= maxShapeMarkers:
					shapes = append(shapes, f.Host)
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
			if r != nil || used[key] || mayReach(reach, key) || hasShape(shapes, key) {
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

// maxShapeMarkers bounds the markers of a host read as a shape (the
// matching tries every split); a host with more may be any domain.
const maxShapeMarkers = 4

// markerFree is host without its markers (checker.ExploreMarker and the
// digits that number it): what the code wrote around the input.
func markerFree(host string) string {
	var b strings.Builder
	for {
		i := strings.Index(host, checker.ExploreMarker)
		if i < 0 {
			b.WriteString(host)
			return b.String()
		}
		b.WriteString(host[:i])
		host = host[i+len(checker.ExploreMarker):]
		for len(host) > 0 && host[0] >= '0' && host[0] <= '9' {
			host = host[1:]
		}
	}
}

// hasShape reports whether domain has the shape of one of the explored
// hosts built from the input: each marker of the host stands for one or
// more characters, the rest matches as written ("zqmark1.my.salesforce.com"
// has the domains ending in ".my.salesforce.com"; "api.zqmark1.x.com" those
// starting with "api." and ending in ".x.com").
func hasShape(shapes []string, domain string) bool {
	for _, s := range shapes {
		if shapeMatch(s, domain) {
			return true
		}
	}
	return false
}

func shapeMatch(shape, domain string) bool {
	i := strings.Index(shape, checker.ExploreMarker)
	if i < 0 {
		return shape == domain
	}
	if !strings.HasPrefix(domain, shape[:i]) {
		return false
	}
	rest := shape[i+len(checker.ExploreMarker):]
	for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
		rest = rest[1:]
	}
	domain = domain[i:]
	// the marker takes one or more characters, then the rest matches
	for k := 1; k <= len(domain); k++ {
		if shapeMatch(rest, domain[k:]) {
			return true
		}
	}
	return false
}
