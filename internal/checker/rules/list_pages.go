package rules

import "github.com/plugin-lsp/plugin-lsp/internal/checker"

// pageRules are the checks of function-tool pages against the manifest.
func pageRules() []*checker.Rule {
	return []*checker.Rule{
		PageSyntax,
		PageImportRefused,
		ToolPageNoDefaultExport,
		HostUnknownMethod,
		HostUndeclaredMethod,
		HostUnusedMethod,
		FetchNotHTTPS,
		FetchUndeclaredDomain,
		FetchRefusedAtRun,
		FetchDynamicURL,
		FetchUnusedDomain,
		ToolRunEndless,
		CredentialInCode,
		FixtureUnmatched,
		FixtureUnused,
		PageUnknownGlobal,
		TypesStale,
	}
}
