package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
)

// FetchDynamicURL notes an http.fetch whose host is not known statically.
var FetchDynamicURL = &checker.Rule{
	Code:     "fetch-dynamic-url",
	Severity: checker.Info,
	Title:    "fetch URL whose host is only known at run time",
	Doc: "The checker reads every http.fetch URL of a page and of the files it imports as a set of possible " +
		"URLs, and checks each against `capabilities.fetch`. When the host of one of them still depends on " +
		"run-time data, it cannot say whether the broker will admit it: this note names the variable or " +
		"parameter that made it so, and the broker decides at run time. A known start whose host is complete " +
		"(`https://api.x.com/${path}`) is checked normally; one whose host may go on (`\"https://api.x.com\" + " +
		"rest`) is not, since `rest` could be `.evil.net/`. Such a call keeps `fetch-unused-domain` silent for the " +
		"domains it could reach.\n\n" +
		"**Forms that resolve** (across the page and the files it imports, relative imports only): string and " +
		"template literals, `+`, `concat`; `const`, and `let`/`var` with every assignment (the union of all of them, " +
		"an `if`/`switch` that assigns included); ternaries, `??` and `||` defaults (both sides); object literals " +
		"and `Object.freeze({…})`, nested, with their properties read by name, by a constant key, or by a key only " +
		"known at run time (`BASES[input.region]`: every value of the record); properties assigned later " +
		"(`cfg.base = …`); destructuring (`const { base } = config`, `const [a, b] = s.split(\" \")`), defaults " +
		"included; optional chaining; arrays with `join(sep)`, `for…of` over a known list, `list.map(x => …)` and " +
		"`forEach`/`filter`/`find`/`some`/`every`/`flatMap` callbacks over a known list; functions, arrow functions, " +
		"factories returning closures, object-literal methods and class methods, evaluated from what they return, " +
		"with each parameter taking the values of every call site (and its default value); classes: `new C(…)`, " +
		"field initializers, `this.x = …` in the constructor or a method, TypeScript parameter properties; " +
		"`new URL(path, base)` (with or without a leading slash) and its `.href`/`toString()`; `String(x)`, " +
		"`toLowerCase()`, `toUpperCase()`, `trim()`; `encodeURI`, `encodeURIComponent`, `String.raw`; a tagged template " +
		"whose tag is a function of the page or its imports (a call: the tag gets the template's strings and values, " +
		"and what it returns counts; `reduce` over the strings is not followed, so the known start is what the tag " +
		"puts before them); `replace` with a string " +
		"or a regular expression (the text before the first match stays known when the replacement is computed).\n\n" +
		"**Forms that stay dynamic**: the tool's input (`input.url`, `https://${input.site}.x.com`, a host picked " +
		"by an input the code does not map through a record: the input schema's `enum` is not read); values from " +
		"a response (`res.json()`, a `Link` header); parameters of a function called from code the checker does " +
		"not see (a callback given to `.then`, `setTimeout`, an unknown library); imports of packages (`\"lodash\"`, " +
		"`\"node:url\"`); a tagged template whose tag is imported from a package; `+=`, `x[k] = …` and `push` on the value; a set of more than 32 " +
		"URLs, a string over 64 KiB, or a value built more than 48 steps deep.",
	Lang:   "ts",
	Before: "export default async (input: { url: string }) => http.fetch(input.url);",
	After:  "const API = \"https://api.x.com\";\nexport default async (input: { id: string }) => http.fetch(`${API}/items/${input.id}`);",
	Run: func(pass *checker.Pass) {
		out := newDedup(pass)
		for _, pi := range loadPages(pass) {
			flagged := map[string]bool{} // file and start of the calls reported
			for _, c := range fetchCalls(pi) {
				var dyn *target
				known := 0
				ts := urlTargets(c.URL)
				for i, t := range ts {
					switch {
					case t.raw != "" || t.relative:
						known++
					case dyn == nil:
						dyn = &ts[i]
					}
				}
				if dyn == nil {
					continue
				}
				why := dyn.reason
				if why == "" {
					why = "it is computed at run time"
				}
				var msg string
				switch {
				case dyn.value.Kind == jspage.Prefix && dyn.prefix != "":
					msg = fmt.Sprintf("this URL starts with %q but its host is only known at run time: %s", dyn.prefix, why)
				default:
					msg = fmt.Sprintf("the host of this URL is only known at run time: %s", why)
				}
				switch {
				case known == 1:
					msg += " (the other possible URL is checked)"
				case known > 1:
					msg += fmt.Sprintf(" (the %d other possible URLs are checked)", known)
				}
				msg += "; the broker will check it against capabilities.fetch then (the forms the checker follows: docs/rules.md#fetch-dynamic-url)"
				out.report(checker.Diagnostic{File: callFile(pi, c), Span: c.URL.Span, Message: msg})
				flagged[fmt.Sprintf("%s:%d", callFile(pi, c), c.Span.Start)] = true
			}
			// A call whose host exploration saw built from the input (a
			// marker value), which the code did not show.
			for _, ec := range exploredCalls(pass, pi) {
				k := fmt.Sprintf("%s:%d", ec.File, ec.Span.Start)
				if !ec.F.Dynamic || flagged[k] {
					continue
				}
				flagged[k] = true
				sp := ec.Span
				if ec.Call != nil && ec.Call.URL != nil {
					sp = ec.Call.URL.Span
				}
				out.report(checker.Diagnostic{File: ec.File, Span: sp,
					Message: fmt.Sprintf("the host of this URL comes from the input (exploring tool %s, %s reached %s); the broker will check it against capabilities.fetch then", ec.Tool, reachedWith(ec.F), checker.Clip(ec.F.URL, 80))})
			}
		}
	},
}
