package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
)

// PageUnknownGlobal reports a use of a global the sandbox does not have
// (fetch, process, require, XMLHttpRequest, …).
var PageUnknownGlobal = &checker.Rule{
	Code:     "page-unknown-global",
	Severity: checker.Error,
	Title:    "global the sandbox does not have",
	Doc: "A page runs in a sandbox with the ECMAScript built-ins, `console`, timers, the web globals listed in " +
		"docs/host-api.md (`URL`, `URLSearchParams`, `TextEncoder`, `atob`, `Headers`, `AbortController`, " +
		"`crypto.getRandomValues`, …) and the host objects its manifest grants. Globals of Node, Deno or a " +
		"browser are not there and throw `ReferenceError` when the tool runs: " +
		absentList() + ". The message says what to use instead (for `fetch`: `http.fetch`, the brokered " +
		"fetch). A name the page declares or imports itself is not reported, nor a `typeof x` feature test. " +
		"The generated types (`.plugin/types.d.ts`, and the VS Code extension's TypeScript plugin) declare " +
		"these names `@deprecated` with the same hint, so this is the one problem at the use: TypeScript " +
		"strikes the name through and adds no \"Cannot find name\" (TS2304) there.",
	Lang:   "ts",
	Before: "const res = await fetch(`https://api.example.com/items?q=${q}`);",
	After:  "const res = await http.fetch(`https://api.example.com/items?q=${q}`);",
	Run: func(pass *checker.Pass) {
		out := newDedup(pass) // a lib file's finding once, whatever imports it
		for _, pi := range loadPages(pass) {
			for _, g := range pi.Page.Globals {
				out.report(checker.Diagnostic{File: fileOrPage(pi, g.File), Span: g.Span,
					Message: fmt.Sprintf("%s is not defined in the sandbox: %s", g.Name, jspage.AbsentGlobals[g.Name])})
			}
		}
	},
}

func absentList() string {
	names := make([]string, 0, len(jspage.AbsentGlobals))
	for n := range jspage.AbsentGlobals {
		names = append(names, "`"+n+"`")
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
