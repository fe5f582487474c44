package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/fixtures"
	"github.com/plugin-lsp/plugin-lsp/analysis/js"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// FixtureUnused warns about a fixture that no page can reach.
var FixtureUnused = &analysis.Rule{
	Code:     "fixture-unused",
	Severity: analysis.Warning,
	Title:    "fixture that no page can fetch",
	Doc: "A `fnFetch` fixture in `fixtures.json` that no tool can ever be answered by is dead weight, and usually " +
		"a sign that a URL changed in the page but not in the fixture (a renamed path, a new query parameter). " +
		"A fixture is unreachable when the broker would refuse its URL (its host is not in `capabilities.fetch`, " +
		"or it is not https), or when no page fetches it: no `http.fetch` call has the same URL (query parameters " +
		"in any order, and the same method when both name one), no call's URL starts with a known prefix of it, " +
		"and no call has a host that is only known at run time.\n\n" +
		"The second check stays silent whenever the checker cannot be sure what the pages fetch: a missing or " +
		"unparsable page, or an `http` method it cannot name.",
	Lang:   "json",
	Before: "{ \"fnFetch\": [{ \"url\": \"https://api.openlibrary.org/v0/search.json?q=hobbit\", \"body\": {} }] }",
	After:  "{ \"fnFetch\": [{ \"url\": \"https://api.openlibrary.org/search.json?q=hobbit\", \"body\": {} }] }",
	Fix:    "Remove the fixture from `fixtures.json`.",
	Run: func(pass *analysis.Pass) {
		p := pass.Plugin
		if p.FixturesError != nil || p.FixturesRoot == nil || p.SyntaxError != nil {
			return
		}
		arr := p.FixturesRoot.Get("fnFetch")
		if arr == nil || arr.Kind != jsonpos.Array {
			return
		}
		allow := allowlist(p)
		calls, sure := reachableFetches(pass)
		invalid := map[string]bool{} // fixtures the schema reports: one mistake, one diagnostic
		for _, pr := range fixturesProblems(pass) {
			if ptr := strings.Split(pr.Pointer, "/"); len(ptr) >= 3 && ptr[1] == "fnFetch" {
				invalid[ptr[2]] = true
			}
		}
		for i, e := range arr.Elems {
			if invalid[strconv.Itoa(i)] {
				continue
			}
			un := e.Get("url")
			u, ok := analysis.Str(un)
			if !ok || u == "" {
				continue // the schema reports it
			}
			m, _ := analysis.Str(e.Get("method"))
			why, host := "", ""
			if t, r := allow.Check(u); r != nil {
				why = fmt.Sprintf("the broker refuses this URL (%s), so no tool can be answered by this fixture", strings.TrimSuffix(r.Message, "."))
				host = t.Host // a root cause (a misspelt or malformed fetch entry) may explain it
			} else if sure && !fixtureReached(calls, strings.ToUpper(m), u) {
				why = "no page fetches this URL"
				if m != "" {
					why = "no page fetches " + strings.ToUpper(m) + " " + u
				}
				why += ": the fixture is never used (did the page's URL change?)"
			}
			if why == "" {
				continue
			}
			d := analysis.Diagnostic{File: analysis.FixturesName, Span: analysis.SpanOf(un), Message: why, Subject: host, Tags: []analysis.Tag{analysis.Unnecessary}}
			if ed, err := jsonedit.RemoveElement(p.FixturesFile, e); err == nil {
				d.Fixes = []analysis.Fix{{Title: "Remove the fixture for " + u, Edits: []analysis.Edit{ed}, Removes: true}}
			}
			pass.Report(d)
		}
	},
}

// reachableFetches returns every page's http.fetch calls, and sure false
// when the checker cannot know every URL the pages may fetch.
func reachableFetches(pass *analysis.Pass) (calls []js.HostCall, sure bool) {
	p := pass.Plugin
	if tn := p.Manifest.ToolsNode; tn != nil && tn.Kind != jsonpos.Array {
		return nil, false
	}
	pages := loadPages(pass)
	bound := 0
	for _, pi := range pages {
		bound += len(pi.Tools)
	}
	if bound != len(p.Manifest.Tools) {
		return nil, false // a page is missing
	}
	for _, pi := range pages {
		if hasPageErrors(pi) {
			return nil, false
		}
		for _, c := range pi.Page.Calls {
			if c.Object == "http" && c.Method != "fetch" {
				return nil, false
			}
		}
		calls = append(calls, fetchCalls(pi)...)
	}
	return calls, true
}

// fixtureReached reports whether some call may be answered by the fixture.
func fixtureReached(calls []js.HostCall, method, u string) bool {
	for _, c := range calls {
		if _, ok := urlTarget(c.URL); !ok {
			return true // a host known only at run time: any URL
		}
		if method != "" && c.FetchMethod != "" && c.FetchMethod != method {
			continue
		}
		switch c.URL.Kind {
		case js.Exact:
			if fixtures.SameURL(u, c.URL.Value) {
				return true
			}
		case js.Prefix:
			if strings.HasPrefix(strings.ToLower(u), strings.ToLower(c.URL.Value)) {
				return true
			}
		}
	}
	return false
}
