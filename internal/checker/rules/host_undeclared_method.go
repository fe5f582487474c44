package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// HostUndeclaredMethod reports a host API call whose method is not in
// capabilities.host.
var HostUndeclaredMethod = &checker.Rule{
	Code:     "host-undeclared-method",
	Severity: checker.Error,
	Title:    "host method not in capabilities.host",
	Doc: "The sandbox starts with no ambient authority: it exposes to a plugin's tools only the host methods " +
		"that `capabilities.host` lists (`http.fetch`, `collections.get`, …). Calling another one fails at " +
		"run time. Calls are found however the method is reached: `http.fetch`, `http[\"fetch\"]`, " +
		"`http?.fetch`, `globalThis.http.fetch`, and aliases such as `const { fetch } = http`, " +
		"`const h = http` or `const f = http.fetch`. A local variable that shadows `http` is not the host.",
	Lang:   "ts",
	Before: "// capabilities.host: [\"http.fetch\"]\nawait collections.put(\"favourites\", id, entry);",
	After:  "// capabilities.host: [\"http.fetch\", \"collections.put\"]\nawait collections.put(\"favourites\", id, entry);",
	Fix:    "Add the method to `capabilities.host` (creating `capabilities` and `host` when absent).",
	Run: func(pass *checker.Pass) {
		out := newDedup(pass)
		p := pass.Plugin
		if p.SyntaxError != nil {
			return // what is declared after the error is unknown
		}
		if n := p.Manifest.HostNode; n != nil && n.Kind != jsonpos.Array {
			return // manifest-schema: capabilities.host is not a list
		}
		reach := reachOf(pass)
		for _, pi := range loadPages(pass) {
			for _, c := range pi.Page.Calls {
				if !capability.IsHostMethod(c.Object, c.Method) {
					continue
				}
				name := c.Object + "." + c.Method
				if reach.HasHost(name) {
					continue
				}
				out.report(checker.Diagnostic{
					File: callFile(pi, c), Span: c.Callee,
					Message: fmt.Sprintf("%s is not in capabilities.host: the sandbox does not give it to this plugin's tools", name),
					Related: append(capabilityRelated(p, "host"), toolsRelated(pi)...),
					Fixes:   addToCapabilityFix(p, "host", name),
				})
			}
		}
	},
}
