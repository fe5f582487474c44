package lsp

import (
	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
)

// fixAllOptions is how `plugin-lsp check --fix` runs on the editor's text
// (ide's fix-all action).
func (s *Server) fixAllOptions(vw *view, ps *pluginState) *fixes.Options {
	files := map[string][]byte{}
	for p, d := range vw.docs {
		files[p] = d.text
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return &fixes.Options{Rules: s.rules(), Config: s.analysisConfig(), Cache: ps.cache, FS: newOverlayFS(files)}
}
