package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/js"
)

// FetchDynamicURL notes an http.fetch whose host is not known statically.
var FetchDynamicURL = &analysis.Rule{
	Code:     "fetch-dynamic-url",
	Severity: analysis.Info,
	Title:    "fetch URL whose host is only known at run time",
	Doc: "The checker follows string and template literals, `+`, `const` names (in any enclosing scope), " +
		"`new URL(path, base)` and its `.href`, `String(x)`, `x.toString()`, `a.concat(b)`, conditionals " +
		"(their common start) and the return values of the page's own functions (parameters unknown). " +
		"When the host still depends on run-time data (a parameter, the tool's input, a `let`, a function " +
		"the page does not define), it cannot say whether " +
		"`capabilities.fetch` admits it; the broker will decide at run time. This note says what is not " +
		"known. A known start whose host is complete (`https://api.x.com/${path}`) is checked normally; " +
		"one whose host may go on (`\"https://api.x.com\" + rest`) is not, since `rest` could be " +
		"`.evil.net/`. While such a call exists, `fetch-unused-domain` stays silent.",
	Lang:   "ts",
	Before: "export default async (input: { url: string }) => http.fetch(input.url);",
	After:  "const API = \"https://api.x.com\";\nexport default async (input: { id: string }) => http.fetch(`${API}/items/${input.id}`);",
	Run: func(pass *analysis.Pass) {
		for _, pi := range loadPages(pass) {
			for _, c := range fetchCalls(pi) {
				if c.URL == nil {
					continue
				}
				if _, ok := urlTarget(c.URL); ok {
					continue
				}
				if c.URL.Kind == js.Prefix && len(c.URL.Value) > 0 && c.URL.Value[0] == '/' {
					continue // a relative URL: fetch-undeclared-domain
				}
				msg := fmt.Sprintf("the host of this URL is only known at run time (%s); the broker will check it against capabilities.fetch then", c.URL.Reason)
				if c.URL.Kind == js.Prefix {
					msg = fmt.Sprintf("this URL starts with %q but its host is only known at run time (%s); the broker will check it against capabilities.fetch then", c.URL.Value, c.URL.Reason)
				}
				pass.Report(analysis.Diagnostic{File: pi.Rel, Span: span(c.URL.Span), Message: msg})
			}
		}
	},
}
