package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

// SnapshotWidened reports reach that grew since plugin.lock.json was
// pinned, at the entry in plugin.json that grew it.
var SnapshotWidened = &checker.Rule{
	Code:     "snapshot-widened",
	Severity: checker.Error,
	Title:    "the reach grew since the capability snapshot was pinned",
	Doc: "`plugin.lock.json` (written by `plugin-lsp pin`) records what a reviewer approved: per tool its host " +
		"methods, fetch domains with their caps, credentials with the hosts they are sent to, and per native tool " +
		"its module, `requires` and `needsApproval`. When the plugin now reaches further, each widening is an error " +
		"at its place in `plugin.json`, naming what was pinned: a new fetch domain, host method, credential or " +
		"credential scope, a raised `fetchMaxBytes`/`fetchTimeoutMs`, a new function or native tool, a native tool " +
		"from another module, a new `requires` entry, or a lowered `needsApproval` (always → conditional → never). " +
		"A new reach needs a new review: look at the review card (`plugin-lsp review`, which lists what changed " +
		"\"since the pinned snapshot\") and re-pin.\n\n" +
		"With `check --require-snapshot` (for CI) a plugin without `plugin.lock.json` is reported here too.",
	Lang: "json",
	Before: "// plugin.lock.json pinned \"fetch\": [{ \"domain\": \"api.openlibrary.org\", … }]\n" +
		"\"fetch\": [\"api.openlibrary.org\", \"api.evil-cdn.example\"]",
	After: "// re-pinned after review: plugin-lsp pin .\n\"fetch\": [\"api.openlibrary.org\", \"api.evil-cdn.example\"]",
	Fix:   "Re-pin the capability snapshot: `plugin-lsp pin DIR`, or the quick fix (command `plugin.pin`), which shows the review card first.",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.Manifest.Root == nil || p.SyntaxError != nil {
			return // what is declared is not known
		}
		pn := loadPinned(pass)
		switch {
		case pn.File == nil && pn.Err == nil:
			if pass.Config.RequireSnapshot {
				pass.Report(checker.Diagnostic{File: checker.ManifestName, Span: checker.KeySpanOf(firstOf(p.Manifest.Name, p.Manifest.Root)),
					Message: fmt.Sprintf("no capability snapshot (%s): nothing this plugin reaches has been pinned; review it and pin it (plugin-lsp pin)", lockfile.FileName)})
			}
			return
		case pn.Err != nil:
			return // snapshot-stale says the snapshot cannot be read
		}
		for _, c := range pn.Changes {
			if !c.Widened {
				continue
			}
			at := changePlace(p, c)
			pass.Report(checker.Diagnostic{File: checker.ManifestName, Span: checker.SpanOf(at),
				Message: widenedMessage(pn, c)})
		}
	},
}

func widenedMessage(pn *pinned, c lockfile.Change) string {
	if c.Pinned != "" { // the line says what was pinned ("was …")
		return fmt.Sprintf("widened since the pinned snapshot: %s; %s", c.Line()[2:], repinHint)
	}
	return fmt.Sprintf("widened since the pinned snapshot: %s; pinned: %s; %s", c.Line()[2:], pinnedOf(pn.Lock, c), repinHint)
}
