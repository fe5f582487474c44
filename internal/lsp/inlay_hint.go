package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// InlayHint: see ide.View.RunHints (the outcome of each tool's last run at
// the end of the line of its anchor), those in the requested lines.
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
	for _, h := range vw.ide().RunHints(rel) {
		pos := vw.enc.toPosition(f, h.At)
		if pos.Line < params.Range.Start.Line || pos.Line > params.Range.End.Line {
			continue
		}
		out = append(out, protocol.InlayHint{
			Position:    pos,
			Label:       protocol.String(h.Label),
			PaddingLeft: new(true),
			Tooltip:     markup(h.Tooltip, vw.caps.hoverMarkdown),
		})
	}
	return out, nil
}
