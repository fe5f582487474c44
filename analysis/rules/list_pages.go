package rules

import "github.com/plugin-lsp/plugin-lsp/analysis"

// pageRules are the checks of function-tool pages against the manifest.
func pageRules() []*analysis.Rule {
	return []*analysis.Rule{
		PageSyntax,
		PageImportRefused,
		ToolPageNoDefaultExport,
		HostUnknownMethod,
		HostUndeclaredMethod,
		FetchNotHTTPS,
		FetchUndeclaredDomain,
		FetchRefusedAtRun,
		FetchDynamicURL,
		FetchUnusedDomain,
		CredentialInCode,
		FixtureUnmatched,
		FixtureUnused,
		PageUnknownGlobal,
		TypesStale,
	}
}
