package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// toolAnchor is where a tool's lens and hint sit: its entry in plugin.json,
// or the default export of its page.
type toolAnchor struct {
	tool string
	span checker.Span
}

// anchors lists the tools shown in file rel.
func (sn *snapshot) anchors(rel string) []toolAnchor {
	if sn.plugin == nil {
		return nil
	}
	var out []toolAnchor
	for _, a := range ide.Anchors(sn.plugin, rel) {
		out = append(out, toolAnchor{tool: a.Tool, span: a.Span})
	}
	for _, a := range ide.NativeAnchors(sn.plugin, rel) {
		out = append(out, toolAnchor{tool: a.Tool, span: a.Span})
	}
	return out
}

// CodeLens puts "▶ Run <tool>" above each tool in the manifest and above
// the page's default export; after a run the lens shows the outcome, or,
// when the manifest, the page or the fixtures changed since, says so.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	sn, rel := s.snapshotOf(params.TextDocument.URI)
	if sn == nil {
		return out, nil
	}
	f := sn.file(rel)
	isn := sn.ide()
	for _, a := range sn.anchors(rel) {
		arg, _ := json.Marshal(runToolArgs{URI: string(uriFor(sn.docs, sn.plugin.Abs(rel))), Tool: a.tool})
		title := "▶ Run " + a.tool
		if run := isn.Runs[a.tool]; run != nil {
			title = ide.RunLens(run, isn.Stale(a.tool))
		}
		out = append(out, protocol.CodeLens{
			Range:   sn.enc.toRange(f, a.span),
			Command: protocol.Command{Title: title, Command: CommandRunTool, Arguments: []protocol.LSPAny{arg}},
		})
	}
	out = append(out, s.testLenses(sn, rel)...)
	return out, nil
}

// snapshotOf returns a fresh snapshot of the plugin owning u and the
// file's plugin-relative path; nil when u is not in a plugin.
func (s *Server) snapshotOf(u uri.URI) (*snapshot, string) {
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
	sn := s.current(ps)
	if sn.plugin == nil {
		return nil, ""
	}
	return sn, rel
}

// refreshWhenStale asks the client for lenses and inlay hints again when a
// check changed which runs are stale (or what changed since them): an edit
// of plugin.json marks the lens of the page, which a client asks for again
// only when the page itself changes.
func (s *Server) refreshWhenStale(ctx context.Context, ps *pluginState, sn *snapshot) {
	key := staleKey(sn)
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

// staleKey names the stale runs of sn and what changed since each, e.g.
// "lookupBook:plugin.json;".
func staleKey(sn *snapshot) string {
	if sn.plugin == nil || len(sn.runs) == 0 {
		return ""
	}
	isn := sn.ide()
	tools := make([]string, 0, len(sn.runs))
	for t := range sn.runs {
		tools = append(tools, t)
	}
	slices.Sort(tools)
	var b strings.Builder
	for _, t := range tools {
		if ch := isn.Stale(t); len(ch) > 0 {
			b.WriteString(t + ":" + strings.Join(ch, ",") + ";")
		}
	}
	return b.String()
}
