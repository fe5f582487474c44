package lsp

import (
	"fmt"
	"github.com/plugin-lsp/plugin-lsp/internal/text"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// fixAllAction is the source.fixAll action: what `plugin-lsp check --fix`
// would apply to the editor's text (every preferred, safe fix, each
// re-checked), as one WorkspaceEdit replacing each changed file. nil when
// there is nothing to fix.
func (s *Server) fixAllAction(vw *view, ps *pluginState, docChanges bool) *protocol.CodeAction {
	files := map[string][]byte{}
	for p, d := range vw.docs {
		files[p] = d.text
	}
	s.mu.Lock()
	o := fixes.Options{Rules: s.rules(), Config: s.analysisConfig(), Cache: ps.cache, FS: newOverlayFS(files)}
	s.mu.Unlock()
	n, edits, err := ide.FixAll(ps.dir, o)
	if err != nil || n == 0 {
		return nil
	}
	kind := protocol.CodeActionKindSourceFixAll
	title := "Apply the preferred fix"
	if n > 1 {
		title = fmt.Sprintf("Apply all %d preferred fixes", n)
	}
	return &protocol.CodeAction{Title: text.Visible(title + " (plugin-lsp check --fix)"), Kind: &kind, Edit: vw.workspaceEdit(edits, docChanges)}
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
