package rules

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// PageSyntax reports a tool page that does not parse, or that holds a
// construct the page analysis cannot read.
var PageSyntax = &checker.Rule{
	Code:     "page-syntax",
	Severity: checker.Error,
	Title:    "tool page does not parse",
	Doc: "A function tool's page is compiled (TypeScript to JavaScript) before it runs; a syntax error there " +
		"means the tool cannot run at all. The page is compiled as the sandbox runs it, as one script: an `await` at " +
		"the top level of a page or of a file it imports is an error (await inside the default export). While a page does not parse, the other page rules cannot see its " +
		"host calls, and `fetch-unused-domain` stays silent. A valid page that uses a construct the checker " +
		"cannot analyse gets a warning instead: its calls are not checked.",
	Lang:   "ts",
	Before: "export default async function f(input: { q: string ) {}",
	After:  "export default async function f(input: { q: string }) {}",
	Run: func(pass *checker.Pass) {
		out := newDedup(pass)
		for _, pi := range loadPages(pass) {
			for _, e := range pi.Page.Errors {
				d := checker.Diagnostic{File: fileOrPage(pi, e.File), Span: e.Span, Message: e.Message}
				if e.Unsupported {
					d.Severity = checker.Warning
				}
				out.report(d)
			}
		}
	},
}
