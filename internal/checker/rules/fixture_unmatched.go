package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// FixtureUnmatched warns about a fetch that no fixture answers.
var FixtureUnmatched = &checker.Rule{
	Code:     "fixture-unmatched",
	Severity: checker.Warning,
	Title:    "no fixture answers this fetch",
	Doc: "In dev mode (`PROVIDERS=fake`, what `plugin-lsp run` and e2e tests use) `http.fetch` is answered " +
		"from `fixtures.json` `fnFetch`, matched by URL (query parameters in any order) and method (a fixture " +
		"without `method` answers any method); a call with no matching fixture throws at once. The rule checks " +
		"each fetch whose whole URL is known statically (the method is read from the init, GET when absent; any " +
		"method matches when the init's method is computed). A fixture with `request` matchers counts as an " +
		"answer: the checker does not know the request's headers and body. A URL known " +
		"only up to a prefix is not checked: its fixtures cannot be matched exactly. Fetches the broker would " +
		"refuse anyway are left to the fetch rules.",
	Lang:   "json",
	Before: "{ \"fnFetch\": [] }",
	After:  "{ \"fnFetch\": [{ \"url\": \"https://api.openlibrary.org/search.json?q=hobbit\", \"body\": {} }] }",
	Fix:    "Add a fixture skeleton to `fixtures.json` (creating the file when absent).",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.FixturesError != nil {
			return
		}
		fixtures := fnFetch(p)
		allow := allowlist(p)
		out := newDedup(pass)
		for _, pi := range loadPages(pass) {
			for _, c := range fetchCalls(pi) {
				if c.URL == nil || c.URL.Kind != jspage.Exact || len(c.URL.Values) > 1 {
					continue // a prefix or a set cannot be matched exactly: say nothing
				}
				raw, ok := urlTarget(c.URL)
				if !ok {
					continue
				}
				if _, r := allow.Check(raw); r != nil {
					continue
				}
				if matchFixture(fixtures, c.FetchMethod, c.URL.Value) {
					continue
				}
				method := c.FetchMethod
				if method == "" {
					method = "any method"
				}
				out.report(checker.Diagnostic{File: callFile(pi, c), Span: c.Span,
					Message: fmt.Sprintf("no fixture in fixtures.json answers %s %s: in dev mode this call throws", method, c.URL.Value),
					Fixes:   fixtureFix(p, c.FetchMethod, c.URL.Value),
				})
			}
		}
	},
}

type fixture struct{ method, url string }

func fnFetch(p *checker.Plugin) []fixture {
	arr := p.FixturesRoot.Get("fnFetch")
	if arr == nil || arr.Kind != jsonpos.Array {
		return nil
	}
	var out []fixture
	for _, e := range arr.Elems {
		u, ok := checker.Str(e.Get("url"))
		if !ok {
			continue
		}
		m, _ := checker.Str(e.Get("method"))
		out = append(out, fixture{strings.ToUpper(m), u})
	}
	return out
}

func matchFixture(fs []fixture, method, url string) bool {
	for _, f := range fs {
		if method != "" && f.method != "" && f.method != method {
			continue
		}
		if fixtures.SameURL(f.url, url) {
			return true
		}
	}
	return false
}

// fixtureFix adds {url, method?, body} to fnFetch, creating fixtures.json
// (or its fnFetch) when absent.
func fixtureFix(p *checker.Plugin, method, url string) []checker.Fix {
	entry := `{"url": ` + jsonString(url)
	if method != "" && method != "GET" {
		entry += `, "method": ` + jsonString(method)
	}
	entry += `, "status": 200, "body": {}}`
	title := "Add a fixture for " + url + " to fixtures.json"
	if p.FixturesFile == nil {
		text := "{\n  \"fnFetch\": [\n    " + strings.ReplaceAll(entry, `{"url"`, `{ "url"`)
		text = strings.TrimSuffix(text, "}") + " }\n  ]\n}\n"
		return []checker.Fix{{Title: title, Edits: []checker.Edit{{File: checker.FixturesName, Create: true, NewText: text}}}}
	}
	e, err := jsonedit.AddToPath(p.FixturesFile, p.FixturesRoot, []string{"fnFetch"}, entry)
	if err != nil {
		return nil
	}
	return []checker.Fix{{Title: title, Edits: []checker.Edit{e}}}
}
