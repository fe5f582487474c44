package rules

import "github.com/plugin-lsp/plugin-lsp/analysis"

// nativeRules are the checks of native tool modules.
func nativeRules() []*analysis.Rule {
	return []*analysis.Rule{}
}
