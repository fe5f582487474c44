package rules

import "github.com/plugin-lsp/plugin-lsp/internal/checker"

// snapshotRules compare the plugin with its pinned capability snapshot,
// plugin.lock.json (docs/snapshot.md).
func snapshotRules() []*checker.Rule {
	return []*checker.Rule{
		SnapshotWidened,
		SnapshotNarrowed,
		SnapshotStale,
		SnapshotTextChanged,
	}
}
