package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
)

// FetchRefusedAtRun reports the fetches the broker refused during the last
// run of a tool (checker.Config.Runs): a URL built at run time that no
// static check could follow.
var FetchRefusedAtRun = &checker.Rule{
	Code:     "fetch-refused-at-run",
	Severity: checker.Error,
	Title:    "the last run fetched a domain not in capabilities.fetch",
	Doc: "Learnt from running the tool, not from reading it: when the last run of a function tool (▶ Run in the " +
		"editor, `plugin.runTool`) asked `http.fetch` for a well-formed https URL whose host `capabilities.fetch` " +
		"does not list, the broker refused it (`refused: \"not-allowed\"` in the run record), and this rule reports it on the " +
		"page's default export and on the tool in plugin.json. It finds what `fetch-undeclared-domain` cannot: a " +
		"host assembled at run time (from input, a join, a lookup) that `fetch-dynamic-url` can only flag as unknown.\n\n" +
		"A host that `fetch-undeclared-domain` already reports for the page, or that the manifest lists by now, is " +
		"not reported again. The language server feeds the rule the runs it made; `plugin-lsp check` has no runs, " +
		"so it reports nothing there.",
	Lang:   "ts",
	Before: "// capabilities.fetch: [\"api.openlibrary.org\"]\nconst host = [\"org\", \"example\", \"books\"].reverse().join(\".\");\nawait http.fetch(`https://${host}/isbn/1.json`); // run: refused",
	After:  "// capabilities.fetch: [\"api.openlibrary.org\", \"books.example.org\"]\nconst host = [\"org\", \"example\", \"books\"].reverse().join(\".\");\nawait http.fetch(`https://${host}/isbn/1.json`);",
	Fix:    "Add the domain to `capabilities.fetch`, as for `fetch-undeclared-domain`.",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		runs := pass.Config.Runs
		if len(runs) == 0 || p.Manifest.Root == nil {
			return
		}
		// The broker's own normalisation: "API.x.org:443" declares api.x.org.
		declared := allowlist(p)
		static := map[string]map[string]bool{} // page → hosts fetch-undeclared-domain reports
		if p.SyntaxError == nil {
			for _, pi := range loadPages(pass) {
				static[pi.Rel] = undeclaredHosts(pi, declared)
			}
		}
		tools := make([]string, 0, len(runs))
		for t := range runs {
			tools = append(tools, t)
		}
		sort.Strings(tools)
		for _, name := range tools {
			var t *checker.Tool
			for _, x := range p.Manifest.Tools {
				if n, ok := checker.Str(x.Name); ok && n == name {
					t = x
					break
				}
			}
			if t == nil {
				continue
			}
			page := ""
			if pg, ok := checker.Str(t.Page); ok {
				if rel, ok := p.ResolvePage(pg); ok {
					page = rel
				}
			}
			seen := map[string]bool{}
			for _, f := range runs[name].Fetches {
				host := strings.ToLower(f.Host)
				if f.Refused != "not-allowed" || host == "" || declared[host] || seen[host] {
					continue
				}
				seen[host] = true
				if staticReports(static, page, host) {
					continue
				}
				msg := fmt.Sprintf("the last run of %s fetched %s, refused: %s is not in capabilities.fetch", name, f.URL, host)
				md := checker.Diagnostic{File: checker.ManifestName, Span: toolSpan(t), Message: msg, Subject: host,
					Fixes: addToCapabilityFix(p, "fetch", host)}
				if page != "" {
					if pf, err := p.ReadFile(page); err == nil {
						sp := checker.DefaultExportSpan(pf.Text)
						pd := md
						pd.File, pd.Span = page, sp
						pd.Related = []checker.Related{{File: checker.ManifestName, Span: md.Span, Message: "the tool " + name}}
						md.Related = []checker.Related{{File: page, Span: sp, Message: "the page that made the call"}}
						pass.Report(pd)
					}
				}
				pass.Report(md)
			}
		}
	},
}

// undeclaredHosts are the hosts fetch-undeclared-domain reports for a page:
// the static targets of its calls the broker refuses as not allowed.
func undeclaredHosts(pi *pageInfo, allow fetchurl.Allowlist) map[string]bool {
	out := map[string]bool{}
	for _, c := range fetchCalls(pi) {
		for _, t := range urlTargets(c.URL) {
			if t.raw == "" {
				continue
			}
			if ft, r := allow.Check(t.raw); r != nil && (r.Reason == fetchurl.NotAllowed || r.Reason == fetchurl.IPLiteral) {
				out[ft.Host] = true
			}
		}
	}
	return out
}

// staticReports reports whether fetch-undeclared-domain flags host in page
// (in any page when the tool's page is unknown).
func staticReports(static map[string]map[string]bool, page, host string) bool {
	if page != "" {
		return static[page][host]
	}
	for _, hosts := range static {
		if hosts[host] {
			return true
		}
	}
	return false
}
