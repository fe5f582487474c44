package rules

import "github.com/plugin-lsp/plugin-lsp/internal/checker"

// manifestRules are the checks of plugin.json itself (issue 2).
func manifestRules() []*checker.Rule {
	return []*checker.Rule{
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
