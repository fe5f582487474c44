// Package rules holds the checks, one per file. Each file declares one
// *analysis.Rule with its code, doc, examples and fix; All lists them in
// the order docs/rules.md shows them.
package rules

import "github.com/plugin-lsp/plugin-lsp/analysis"

// All returns every rule. Callers must not modify the rules.
func All() []*analysis.Rule {
	var all []*analysis.Rule
	all = append(all, manifestRules()...)
	all = append(all, nativeRules()...)
	all = append(all, pageRules()...)
	return all
}

// ByCode returns the rule with the given code, or nil.
func ByCode(code string) *analysis.Rule {
	for _, r := range All() {
		if r.Code == code {
			return r
		}
	}
	return nil
}
