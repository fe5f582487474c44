package lsp

import (
	"fmt"
	"os"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/analysis"
)

// MaxLiveManifestBytes is the largest plugin.json the server re-checks
// while it is being typed (docs/lsp.md, "Large manifests"). A plugin whose
// manifest is larger is checked when a file of it is opened or saved and
// when files change on disk, not on every keystroke: a check of a 25 MB
// manifest takes seconds, and an editor would queue one per edit. The
// server says so once per plugin (window/showMessage).
const MaxLiveManifestBytes = 4 << 20

// manifestSize returns the size of the plugin's manifest: the open buffer,
// else the file on disk. Callers hold s.mu.
func (s *Server) manifestSize(ps *pluginState) int64 {
	m := filepath.Join(ps.dir, analysis.ManifestName)
	if d, ok := s.docs[m]; ok {
		return int64(len(d.text))
	}
	if fi, err := os.Stat(m); err == nil {
		return fi.Size()
	}
	return 0
}

// deferLargeEdit reports whether an edit of path should wait for the save
// because its plugin's manifest is over MaxLiveManifestBytes; the first
// time, it tells the user. Callers hold s.mu.
func (s *Server) deferLargeEdit(path string) bool {
	ps := s.pluginFor(path)
	if ps == nil {
		return false
	}
	limit := int64(MaxLiveManifestBytes)
	if s.opts.MaxLiveManifest > 0 {
		limit = s.opts.MaxLiveManifest
	}
	size := s.manifestSize(ps)
	if size <= limit {
		return false
	}
	ps.editsPending = true
	if !ps.largeNoticed {
		ps.largeNoticed = true
		msg := fmt.Sprintf("plugin-lsp: %s is %.1f MB, over the %.1f MB re-checked as you type: this plugin is checked when a file is opened or saved, not on every edit (run `plugin-lsp check` for the same diagnostics).",
			filepath.Join(ps.dir, analysis.ManifestName), float64(size)/(1<<20), float64(limit)/(1<<20))
		s.safeGo("large manifest notice", func() {
			_ = s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: msg})
		})
	}
	return true
}
