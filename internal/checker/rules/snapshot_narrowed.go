package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// SnapshotNarrowed notes reach that shrank since plugin.lock.json was
// pinned.
var SnapshotNarrowed = &checker.Rule{
	Code:     "snapshot-narrowed",
	Severity: checker.Info,
	Title:    "the reach shrank since the capability snapshot was pinned",
	Doc: "The plugin reaches less than `plugin.lock.json` records: a fetch domain, host method, credential or " +
		"credential scope is gone, a cap was lowered, a tool was removed, `needsApproval` was raised. Nothing " +
		"is at risk, but the snapshot no longer says what the plugin does: re-pin so that the next widening " +
		"is measured from the truth.",
	Lang:   "json",
	Before: "// plugin.lock.json pinned \"host\": [\"http.fetch\", \"collections.put\"]\n\"host\": [\"http.fetch\"]",
	After:  "// re-pinned: plugin-lsp pin .\n\"host\": [\"http.fetch\"]",
	Fix:    "Re-pin the capability snapshot: `plugin-lsp pin DIR`, or the quick fix (command `plugin.pin`).",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.Manifest.Root == nil || p.SyntaxError != nil {
			return
		}
		pn := loadPinned(pass)
		if pn.Lock == nil {
			return
		}
		for _, c := range pn.Changes {
			if c.Widened {
				continue
			}
			at := changePlace(p, c)
			pass.Report(checker.Diagnostic{File: checker.ManifestName, Span: checker.KeySpanOf(at),
				Message: fmt.Sprintf("narrowed since the pinned snapshot: %s; re-pin to record the narrower reach", c.Line()[2:])})
		}
	},
}
