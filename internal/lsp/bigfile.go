package lsp

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// MaxLiveManifestBytes is the largest plugin.json the server checks in
// full as it is typed (docs/lsp.md, "Large manifests"). For a plugin whose
// manifest is larger, the server does not validate the manifest against
// the schema (three quarters of the 24 s a 25 MB manifest took on a loaded
// machine), checks the plugin when a file of it is opened or saved and
// when files change on disk, not on every keystroke, and says so with one
// diagnostic, LargeManifestCode, at 1:1 of plugin.json. `plugin-lsp check`
// checks such a manifest in full.
const MaxLiveManifestBytes = 4 << 20

// LargeManifestCode is the code of the diagnostic that says a manifest is
// over MaxLiveManifestBytes.
const LargeManifestCode = "manifest-too-large"

// heavyRules are the rules not run on a manifest over the limit.
var heavyRules = map[string]bool{"manifest-schema": true}

// manifestSize returns the size of the plugin's manifest: the open buffer,
// else the file on disk. Callers hold s.mu.
func (s *Server) manifestSize(ps *pluginState) int64 {
	m := filepath.Join(ps.dir, checker.ManifestName)
	if d, ok := s.docs[m]; ok {
		return int64(len(d.text))
	}
	if fi, err := os.Stat(m); err == nil {
		return fi.Size()
	}
	return 0
}

// liveLimit is the manifest size over which a plugin is checked on open
// and save only. Callers hold s.mu.
func (s *Server) liveLimit() int64 {
	if s.opts.MaxLiveManifest > 0 {
		return s.opts.MaxLiveManifest
	}
	return MaxLiveManifestBytes
}

// deferLargeEdit reports whether an edit of path should wait for the save
// because its plugin's manifest is over the limit (the check's diagnostic
// says so). Callers hold s.mu.
func (s *Server) deferLargeEdit(path string) bool {
	ps := s.pluginFor(path)
	if ps == nil || s.manifestSize(ps) <= s.liveLimit() {
		return false
	}
	ps.editsPending = true
	return true
}

// checkRules returns the rules a check of a plugin whose manifest has
// size bytes runs, and the diagnostic that says some were left out (nil
// when none were).
func (s *Server) checkRules(size, limit int64) ([]*checker.Rule, *checker.Diagnostic) {
	all := s.rules()
	if size <= limit {
		return all, nil
	}
	var keep []*checker.Rule
	for _, r := range all {
		if !heavyRules[r.Code] {
			keep = append(keep, r)
		}
	}
	return keep, &checker.Diagnostic{
		File: checker.ManifestName, Code: LargeManifestCode, Severity: checker.Warning,
		Message: fmt.Sprintf("plugin.json is %s, over the %s the language server checks in full: it is not validated against the schema here, and edits are checked when a file is saved, not as you type. Run `plugin-lsp check` for every diagnostic.",
			byteSize(size), byteSize(limit)),
	}
}

// byteSize writes n for a message: "25.7 MB", "512 bytes".
func byteSize(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
