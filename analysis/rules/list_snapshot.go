package rules

import "github.com/plugin-lsp/plugin-lsp/analysis"

// snapshotRules compare the plugin with its pinned capability snapshot,
// plugin.lock.json (docs/snapshot.md).
func snapshotRules() []*analysis.Rule {
	return []*analysis.Rule{
		SnapshotWidened,
		SnapshotNarrowed,
		SnapshotStale,
	}
}
