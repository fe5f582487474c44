package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/capability"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonedit"
)

// learntCode is the code of a fetch refused during a run: the same finding
// as the static rule, learnt from what the tool really did (a URL built at
// run time that no static check could see).
const learntCode = "fetch-undeclared-domain"

// learntDiagnostics turns the fetches refused during the last run of each
// tool ("not-allowed": a well-formed https URL whose host is missing from
// capabilities.fetch) into diagnostics on the tool's page and on the tool
// in plugin.json, each with the fix that adds the host. A host the static
// rule already reports for the page, or that the manifest now lists, is
// skipped.
func learntDiagnostics(p *analysis.Plugin, runs map[string]*toolRun, static []analysis.Diagnostic) []analysis.Diagnostic {
	if len(runs) == 0 || p.Manifest.Root == nil {
		return nil
	}
	// The broker's own normalisation: "API.x.org:443" declares api.x.org.
	declared := capability.FromManifest(p.Manifest).Allowlist()
	tools := make([]string, 0, len(runs))
	for t := range runs {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	var out []analysis.Diagnostic
	for _, name := range tools {
		run := runs[name]
		if run.record == nil {
			continue
		}
		t := p.Manifest.FunctionTool(name)
		if t == nil {
			continue
		}
		page := ""
		if pg, ok := analysis.Str(t.Page); ok {
			if rel, ok := p.ResolvePage(pg); ok {
				page = rel
			}
		}
		seen := map[string]bool{}
		for _, f := range run.record.Fetches {
			host := strings.ToLower(f.Host)
			if f.Refused != "not-allowed" || host == "" || declared[host] || seen[host] {
				continue
			}
			seen[host] = true
			if staticReports(static, page, host) {
				continue
			}
			fix := addDomainFix(p, host)
			msg := fmt.Sprintf("the last run of %s fetched %s, refused: %s is not in capabilities.fetch", name, f.URL, host)
			manifestSpan := analysis.SpanOf(t.Name)
			if t.Name == nil {
				manifestSpan = analysis.SpanOf(t.Node)
			}
			md := analysis.Diagnostic{
				File: analysis.ManifestName, Span: manifestSpan, Severity: analysis.Error,
				Code: learntCode, Message: msg,
			}
			if fix != nil {
				md.Fixes = []analysis.Fix{*fix}
			}
			if page != "" {
				pf, err := p.ReadFile(page)
				if err == nil {
					sp := defaultExportSpan(pf.Text)
					pd := md
					pd.File, pd.Span = page, sp
					pd.Related = []analysis.Related{{File: analysis.ManifestName, Span: manifestSpan, Message: "the tool " + name}}
					md.Related = []analysis.Related{{File: page, Span: sp, Message: "the page that made the call"}}
					out = append(out, pd)
				}
			}
			out = append(out, md)
		}
	}
	return out
}

// staticReports reports whether the static rule already flags host in page.
func staticReports(static []analysis.Diagnostic, page, host string) bool {
	for _, d := range static {
		if d.Code == learntCode && (page == "" || d.File == page) && strings.Contains(strings.ToLower(d.Message), host) {
			return true
		}
	}
	return false
}

// addDomainFix adds host to capabilities.fetch.
func addDomainFix(p *analysis.Plugin, host string) *analysis.Fix {
	q, _ := json.Marshal(host)
	e, err := jsonedit.AddToPath(p.ManifestFile, p.Manifest.Root, []string{"capabilities", "fetch"}, string(q))
	if err != nil {
		return nil
	}
	return &analysis.Fix{Title: fmt.Sprintf("Add %s to capabilities.fetch", host), Edits: []analysis.Edit{e}}
}

// defaultExportSpan is the "export default" of a page, or its first line.
func defaultExportSpan(text []byte) analysis.Span {
	if i := bytes.Index(text, []byte("export default")); i >= 0 {
		return analysis.Span{Start: i, End: i + len("export default")}
	}
	end := bytes.IndexByte(text, '\n')
	if end < 0 {
		end = len(text)
	}
	return analysis.Span{Start: 0, End: end}
}
