package lsp

import (
	"go.lsp.dev/protocol"

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

// explicitly reports whether the client asked for kind by its name
// (VS Code's codeActionsOnSave "source.fixAll", a "Fix all" command):
// fix-all re-checks the plugin once per fix, so it is not computed for
// unfiltered or plain "source" requests.
func explicitly(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	for _, o := range only {
		if o == kind {
			return true
		}
	}
	return false
}
