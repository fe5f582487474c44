package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// CodeLens: the tools' lenses (ide.View.ToolLenses: "▶ Run <tool>", then
// the outcome or what changed since) and, in a test file, the tests'
// (ide.TestLenses).
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	vw, rel := s.viewOf(params.TextDocument.URI)
	if vw == nil {
		return out, nil
	}
	lenses := vw.ide().ToolLenses(rel)
	if ide.IsTestFile(rel) {
		lenses = append(lenses, ide.TestLenses(rel, vw.testCases(rel))...)
	}
	f := vw.file(rel)
	for _, l := range lenses {
		out = append(out, protocol.CodeLens{Range: vw.enc.toRange(f, l.Span), Command: vw.toCommand(l.Command)})
	}
	return out, nil
}

// viewOf returns a fresh view of the plugin owning u and the
// file's plugin-relative path; nil when u is not in a plugin.
func (s *Server) viewOf(u uri.URI) (*view, string) {
	path := pathOf(u)
	s.mu.Lock()
	ps := s.pluginFor(path)
	s.mu.Unlock()
	if ps == nil {
		return nil, ""
	}
	rel, ok := relTo(ps.dir, path)
	if !ok {
		return nil, ""
	}
	vw := s.current(ps)
	if vw.plugin == nil {
		return nil, ""
	}
	return vw, rel
}

// refreshWhenStale asks the client for lenses and inlay hints again when a
// check changed which runs are stale (or what changed since them): an edit
// of plugin.json marks the lens of the page, which a client asks for again
// only when the page itself changes.
func (s *Server) refreshWhenStale(ctx context.Context, ps *pluginState, vw *view) {
	key := vw.ide().StaleKey()
	s.mu.Lock()
	changed := key != ps.stale
	ps.stale = key
	lens, hints := s.caps.codeLensRefresh, s.caps.inlayHintRefresh
	s.mu.Unlock()
	if !changed {
		return
	}
	if lens {
		_ = s.client.CodeLensRefresh(ctx)
	}
	if hints {
		_ = s.client.InlayHintRefresh(ctx)
	}
}
