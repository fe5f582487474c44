package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/snapshot"
)

// SnapshotStale notes source files that changed since plugin.lock.json was
// pinned.
var SnapshotStale = &analysis.Rule{
	Code:     "snapshot-stale",
	Severity: analysis.Info,
	Title:    "the source changed since the capability snapshot was pinned",
	Doc: "`plugin.lock.json` records the source-tree hash of the plugin (every regular file but the snapshot " +
		"itself) and each file's hash. When the files differ the note names the files changed, added and removed. " +
		"The reach may be the same (then `snapshot-widened` stays quiet), but what a reviewer approved were " +
		"specific bytes: re-pin when the change is reviewed. A `plugin.lock.json` that is not a snapshot " +
		"(hand-edited, cut short) is reported here too, as an error with `check --require-snapshot`.",
	Lang:   "json",
	Before: "// plugin.lock.json: \"files\": { \"code/lookup-book.ts\": \"sha256:5f1c…\" } — the page was edited since",
	After:  "// re-pinned after review: plugin-lsp pin .",
	Fix:    "Re-pin the capability snapshot: `plugin-lsp pin DIR`, or the quick fix (command `plugin.pin`).",
	Run: func(pass *analysis.Pass) {
		p := pass.Plugin
		if p.Manifest.Root == nil {
			return
		}
		pn := loadPinned(pass)
		if pn.Err != nil {
			lockProblem(pass, pn)
			return
		}
		if pn.Lock == nil {
			return
		}
		files, hash, err := snapshot.Files(p)
		if err != nil {
			pass.Report(analysis.Diagnostic{File: snapshot.FileName, Span: hashSpan(pn.File),
				Message: fmt.Sprintf("the source tree cannot be hashed (%v): the snapshot cannot be compared", err)})
			return
		}
		changed, added, removed, stale := snapshot.Stale(pn.Lock, &snapshot.Lock{Files: files, SourceTreeHash: hash})
		if !stale && len(changed)+len(added)+len(removed) == 0 {
			return
		}
		var parts []string
		for _, g := range []struct {
			what  string
			files []string
		}{{"changed", changed}, {"added", added}, {"removed", removed}} {
			if len(g.files) > 0 {
				parts = append(parts, g.what+" "+clipList(g.files, 8))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, "the file list is the same but the pinned hash differs")
		}
		pass.Report(analysis.Diagnostic{File: snapshot.FileName, Span: hashSpan(pn.File),
			Message: fmt.Sprintf("the source changed since the snapshot was pinned (%s): %s", pn.Lock.SourceTreeHash, strings.Join(parts, "; "))})
	},
}

// hashSpan is the sourceTreeHash value in plugin.lock.json.
func hashSpan(f *analysis.File) analysis.Span {
	root, _ := jsonposParse(f.Text)
	if n := root.Get("sourceTreeHash"); n != nil {
		return analysis.SpanOf(n)
	}
	return analysis.Span{}
}

func clipList(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(xs[:n], ", "), len(xs)-n)
}
