package rules

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
)

// reachOf is the plugin's reach from the capability model, computed once
// per manifest text.
func reachOf(pass *checker.Pass) *capability.Reach {
	m := pass.Plugin.Manifest
	if pass.Cache == nil || pass.Plugin.ManifestFile == nil {
		return capability.FromManifest(m)
	}
	return pass.Cache.Memo("capability", pass.Plugin.ManifestFile.Text, func() any {
		return capability.FromManifest(m)
	}).(*capability.Reach)
}

// reportReach reports the capability model's problems that belong to the
// rule code, except where one of the spans in skip (what the rule
// reported already) overlaps: every entry the model refuses to grant has
// an error in check, exactly once.
func reportReach(pass *checker.Pass, code string, skip ...checker.Span) {
	for _, pr := range reachOf(pass).Problems {
		if pr.Code != code || overlapsAny(pr.Span, skip) {
			continue
		}
		pass.Report(checker.Diagnostic{File: checker.ManifestName, Span: pr.Span, Message: pr.Message})
	}
}

func overlapsAny(s checker.Span, in []checker.Span) bool {
	for _, o := range in {
		if s.Start < o.End && o.Start < s.End || s == o {
			return true
		}
	}
	return false
}
