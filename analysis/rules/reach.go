package rules

import (
	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/capability"
)

// reachOf is the plugin's reach from the capability model, computed once
// per manifest text.
func reachOf(pass *analysis.Pass) *capability.Reach {
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
func reportReach(pass *analysis.Pass, code string, skip ...analysis.Span) {
	for _, pr := range reachOf(pass).Problems {
		if pr.Code != code || overlapsAny(pr.Span, skip) {
			continue
		}
		pass.Report(analysis.Diagnostic{File: analysis.ManifestName, Span: pr.Span, Message: pr.Message})
	}
}

func overlapsAny(s analysis.Span, in []analysis.Span) bool {
	for _, o := range in {
		if s.Start < o.End && o.Start < s.End || s == o {
			return true
		}
	}
	return false
}
