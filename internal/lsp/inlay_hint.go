package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// InlayHint shows the outcome of each tool's last run at the end of the
// line of its anchor (the tool's name in plugin.json, the page's default
// export).
func (s *Server) InlayHint(ctx context.Context, params *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	out := []protocol.InlayHint{}
	vw, rel := s.viewOf(params.TextDocument.URI)
	if vw == nil {
		return out, nil
	}
	f := vw.file(rel)
	if f == nil {
		return out, nil
	}
	isn := vw.ide()
	for _, a := range vw.anchors(rel) {
		run := vw.runs[a.tool]
		if run == nil {
			continue
		}
		// end of the anchor's line
		end := a.span.End
		for end < len(f.Text) && f.Text[end] != '\n' {
			end++
		}
		pos := vw.enc.toPosition(f, end)
		if pos.Line < params.Range.Start.Line || pos.Line > params.Range.End.Line {
			continue
		}
		out = append(out, protocol.InlayHint{
			Position:    pos,
			Label:       protocol.String(ide.RunHint(isn.Runs[a.tool], isn.Stale(a.tool))),
			PaddingLeft: new(true),
			Tooltip:     markup(renderRun(a.tool, run), vw.caps.hoverMarkdown),
		})
	}
	return out, nil
}
