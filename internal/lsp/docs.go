package lsp

import (
	"os"
	"path/filepath"

	"go.lsp.dev/uri"
)

// FindRulesDoc looks for docs/rules.md in the directories at and above each
// start path (the executable, the working directory) and returns it as a
// file:// URL, or "" when there is none: a link to nowhere is worse than no
// link.
func FindRulesDoc(starts ...string) string {
	for _, st := range starts {
		if st == "" {
			continue
		}
		dir := st
		if fi, err := os.Stat(st); err == nil && !fi.IsDir() {
			dir = filepath.Dir(st)
		}
		dir, _ = filepath.Abs(dir)
		for {
			p := filepath.Join(dir, "docs", "rules.md")
			if fileExists(p) {
				return string(uri.File(p))
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return ""
}
