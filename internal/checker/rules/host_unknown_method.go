package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
)

// HostUnknownMethod reports a call of a method the host API does not
// have (http.get, collections.find), and such a method in
// capabilities.host.
var HostUnknownMethod = &checker.Rule{
	Code:     "host-unknown-method",
	Severity: checker.Error,
	Title:    "not a host API method",
	Doc: "The host API is small: `http.fetch(url, init?)` and `collections.get|put|delete|query`. Anything " +
		"else on `http` or `collections` is undefined in the sandbox and throws a TypeError when called " +
		"(there is no `http.get`: use `http.fetch(url)`; no `http.post`: use `http.fetch(url, { method: " +
		"\"POST\", body })`). A name in `capabilities.host` that is not a host method is reported too.",
	Lang:   "ts",
	Before: "const res = await http.get(\"https://api.x.com/items\");",
	After:  "const res = await http.fetch(\"https://api.x.com/items\");",
	Run: func(pass *checker.Pass) {
		out := newDedup(pass)
		for _, pi := range loadPages(pass) {
			for _, c := range pi.Page.Calls {
				if c.Method == "" || capability.IsHostMethod(c.Object, c.Method) {
					continue
				}
				file, f := callFile(pi, c), pi.File
				if file != pi.Rel { // the call is in a file the page imports
					f, _ = pass.Plugin.ReadFile(file)
				}
				d := checker.Diagnostic{
					File: file, Span: c.Callee,
					Message: fmt.Sprintf("%s.%s is not a host method: %s offers only %s%s", c.Object, c.Method, c.Object,
						strings.Join(qualified(c.Object), ", "), hint(c.Object, c.Method)),
				}
				if f != nil {
					if fx, use, ok := methodFix(f, c.Callee, c.Object, c.Method); ok {
						d.Fixes = []checker.Fix{fx}
						if hint(c.Object, c.Method) == "" {
							d.Message += fmt.Sprintf(" (did you mean %s.%s?)", c.Object, use)
						}
					}
				}
				out.report(d)
			}
		}
		// capabilities.host entries the catalogue does not have (they grant
		// nothing), from the capability model.
		reportReach(pass, "host-unknown-method")
	},
}

func qualified(obj string) []string {
	var out []string
	for _, m := range capability.MethodsOf(obj) {
		out = append(out, obj+"."+m)
	}
	return out
}

func hint(obj, method string) string {
	if obj != "http" {
		return ""
	}
	switch strings.ToLower(method) {
	case "get", "request", "fetchjson":
		return " (use http.fetch(url))"
	case "post", "put", "patch", "delete", "head":
		return fmt.Sprintf(" (use http.fetch(url, { method: %q, … }))", strings.ToUpper(method))
	}
	return ""
}
