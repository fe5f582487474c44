package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// SnapshotStale notes source files that changed since plugin.lock.json was
// pinned.
var SnapshotStale = &checker.Rule{
	Code:     "snapshot-stale",
	Severity: checker.Info,
	Title:    "the source changed since the capability snapshot was pinned",
	Doc: "`plugin.lock.json` records the source-tree hash of the plugin (every regular file but the snapshot " +
		"itself) and each file's hash. When the files differ the note names the files changed, added and removed. " +
		"The reach may be the same (then `snapshot-widened` stays quiet), but what a reviewer approved were " +
		"specific bytes: re-pin when the change is reviewed. A native module runs with full trust, so a change of " +
		"its bytes (or of a plugin file it imports) is reported on its own, at its pinned `moduleHash`, and is an " +
		"error with `check --require-snapshot`: new code with the same tools map is not what was approved. " +
		"A `plugin.lock.json` that is not a snapshot (hand-edited, cut short) is reported here too, as an error " +
		"with `check --require-snapshot`.",
	Lang:   "json",
	Before: "// plugin.lock.json: \"files\": { \"code/lookup-book.ts\": \"sha256:5f1c…\" } — the page was edited since",
	After:  "// re-pinned after review: plugin-lsp pin .",
	Fix:    "Re-pin the capability snapshot: `plugin-lsp pin DIR`, or the quick fix (command `plugin.pin`).",
	Run: func(pass *checker.Pass) {
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
		files, hash, err := lockfile.Files(p)
		if err != nil {
			pass.Report(checker.Diagnostic{File: lockfile.FileName, Span: hashSpan(pn.File),
				Message: fmt.Sprintf("the source tree cannot be hashed (%v): the snapshot cannot be compared", err)})
			return
		}
		changed, added, removed, stale := lockfile.Stale(pn.Lock, &lockfile.Lock{Files: files, SourceTreeHash: hash})
		if !stale && len(changed)+len(added)+len(removed) == 0 {
			return
		}
		// Full-trust bytes: a native module, or a module it imports. What the
		// reviewer approved were those bytes, so under --require-snapshot a
		// change is an error, each at the module's pinned hash.
		native := nativeFiles(pass)
		var rest []string
		split := func(files []string, what string) []string {
			var out []string
			for _, f := range files {
				by, ok := native[f]
				if !ok {
					out = append(out, f)
					continue
				}
				subject := "native module " + f
				if by != f {
					subject = f + ", imported by native module " + by
				}
				d := checker.Diagnostic{File: lockfile.FileName, Span: moduleHashSpan(pn.File, by),
					Message: fmt.Sprintf("%s was %s since the snapshot was pinned (%s): it runs with full trust and the reviewer approved other bytes; %s",
						subject, what, pinnedSum(pn.Lock, f), repinHint)}
				if pass.Config.RequireSnapshot {
					d.Severity = checker.Error
				}
				pass.Report(d)
				rest = append(rest, f)
			}
			return out
		}
		changed, added, removed = split(changed, "changed"), split(added, "added"), split(removed, "removed")
		if !stale && len(changed)+len(added)+len(removed) == 0 {
			return
		}
		if len(changed)+len(added)+len(removed) == 0 && len(rest) > 0 {
			return // all said above
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
		pass.Report(checker.Diagnostic{File: lockfile.FileName, Span: hashSpan(pn.File),
			Message: fmt.Sprintf("the source changed since the snapshot was pinned (%s): %s", pn.Lock.SourceTreeHash, strings.Join(parts, "; "))})
	},
}

// nativeFiles maps each file of the plugin that runs with full trust to
// the native module it belongs to: the modules nativeTools names, and
// the plugin files they import (relative specifiers, followed through
// the .js/.mjs modules, at most maxClosure files per module).
func nativeFiles(pass *checker.Pass) map[string]string {
	out := map[string]string{}
	for _, nt := range pass.Plugin.Manifest.NativeTools {
		s, ok := checker.Str(nt.Module)
		if !ok {
			continue
		}
		rel, err := checker.Clean(s)
		if err != nil {
			continue
		}
		if _, seen := out[rel]; seen {
			continue
		}
		out[rel] = rel
		queue := []string{rel}
		for i := 0; i < len(queue) && i < maxClosure; i++ {
			if !isNativeExtension(path.Ext(queue[i])) {
				continue
			}
			mod := readModule(pass, queue[i])
			if mod == nil {
				continue
			}
			for _, imp := range mod.Imports {
				if !strings.HasPrefix(imp.From, "./") && !strings.HasPrefix(imp.From, "../") {
					continue
				}
				target, err := checker.Clean(path.Join(path.Dir(queue[i]), imp.From))
				if err != nil {
					continue
				}
				if _, seen := out[target]; !seen {
					out[target] = rel
					queue = append(queue, target)
				}
			}
		}
	}
	return out
}

// moduleHashSpan is the pinned moduleHash of the native module rel in
// plugin.lock.json (else its sourceTreeHash).
func moduleHashSpan(f *checker.File, rel string) checker.Span {
	root, _ := jsonpos.Parse(f.Text)
	for _, n := range root.Get("nativeTools").Children() {
		if s, ok := checker.Str(n.Get("module")); ok && s == rel {
			if h := n.Get("moduleHash"); h != nil {
				return checker.SpanOf(h)
			}
		}
	}
	return hashSpan(f)
}

// pinnedSum says what the snapshot holds for a file.
func pinnedSum(l *lockfile.Lock, rel string) string {
	if sum, ok := l.Files[rel]; ok {
		return "pinned " + sum
	}
	return "not in the snapshot"
}

// hashSpan is the sourceTreeHash value in plugin.lock.json.
func hashSpan(f *checker.File) checker.Span {
	root, _ := jsonpos.Parse(f.Text)
	if n := root.Get("sourceTreeHash"); n != nil {
		return checker.SpanOf(n)
	}
	return checker.Span{}
}

func clipList(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(xs[:n], ", "), len(xs)-n)
}
