package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// ToolPageNoDefaultExport reports a page whose default export is missing
// or is not a function.
var ToolPageNoDefaultExport = &checker.Rule{
	Code:     "tool-page-no-default-export",
	Severity: checker.Error,
	Title:    "tool page has no default export function",
	Doc: "The sandbox calls a page's default export with the tool's input; a page without one (or whose " +
		"default export is a class, an object or a value) cannot run as a tool. A default export the " +
		"checker cannot classify (an imported or computed value) is not reported. A page that does not " +
		"parse gets `page-syntax` instead.",
	Lang:   "ts",
	Before: "export async function lookupBook(isbn: string) { … }",
	After:  "export default async function lookupBook(isbn: string) { … }",
	Run: func(pass *checker.Pass) {
		for _, pi := range loadPages(pass) {
			if hasPageErrors(pi) {
				continue
			}
			de := pi.Page.DefaultExport
			tools := make([]string, len(pi.Tools))
			for i, t := range pi.Tools {
				tools[i] = toolName(t)
			}
			switch {
			case !de.Present:
				pass.Report(checker.Diagnostic{File: pi.Rel, Span: checker.Span{},
					Message: fmt.Sprintf("this page has no default export: the sandbox runs a tool (%s) by calling the page's default export function", strings.Join(tools, ", "))})
			case de.Kind == "class" || de.Kind == "object" || de.Kind == "value":
				pass.Report(checker.Diagnostic{File: pi.Rel, Span: de.Span,
					Message: fmt.Sprintf("the default export is %s, not a function: the sandbox calls it with the tool's input", article(de.Kind))})
			}
		}
	},
}

func article(kind string) string {
	switch kind {
	case "object":
		return "an object"
	case "value":
		return "a plain value"
	}
	return "a " + kind
}
