package rules

import "github.com/plugin-lsp/plugin-lsp/analysis"

// manifestRules are the checks of plugin.json itself (issue 2).
func manifestRules() []*analysis.Rule {
	return []*analysis.Rule{
		ManifestSyntax,
		ManifestSchema,
		JSONDuplicateKey,
		ToolPageMissing,
		NativeModuleMissing,
		NativeModuleOutside,
		NameShadowsBuiltin,
		NameDuplicate,
		NativeSDKMissing,
		CredentialFormat,
		CredentialUnscoped,
		FetchLimitRange,
		ToolExampleInvalid,
	}
}
