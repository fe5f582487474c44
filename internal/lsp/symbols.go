package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// DocumentSymbol outlines plugin.json: tools, native modules with their
// names, and the capabilities.
func (s *Server) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	out := protocol.DocumentSymbolSlice{}
	vw, rel := s.viewOf(params.TextDocument.URI)
	if vw == nil || rel != checker.ManifestName {
		return out, nil
	}
	f := vw.file(rel)
	m := vw.plugin.Manifest
	sym := func(name, detail string, kind protocol.SymbolKind, n, sel *jsonpos.Node, children []protocol.DocumentSymbol) protocol.DocumentSymbol {
		if name == "" {
			name = "(unnamed)"
		}
		full := checker.SpanOf(n)
		if n != nil && n.KeySpan.End > n.KeySpan.Start && n.KeySpan.Start < full.Start {
			full.Start = n.KeySpan.Start
		}
		selSpan := checker.SpanOf(sel)
		if sel == nil || selSpan.Start < full.Start || selSpan.End > full.End {
			selSpan = full
		}
		// Names and details are the plugin's strings: their controls shown.
		name, detail = text.Visible(name), text.Visible(detail)
		d := protocol.DocumentSymbol{Name: name, Kind: kind, Range: vw.enc.toRange(f, full), SelectionRange: vw.enc.toRange(f, selSpan), Children: children}
		if detail != "" {
			d.Detail = &detail
		}
		return d
	}
	if m.ToolsNode != nil {
		var kids []protocol.DocumentSymbol
		for _, t := range m.Tools {
			name, _ := checker.Str(t.Name)
			page, _ := checker.Str(t.Page)
			kids = append(kids, sym(name, page, protocol.SymbolKindFunction, t.Node, t.Name, nil))
		}
		out = append(out, sym("tools", fmt.Sprintf("%d function tools", len(m.Tools)), protocol.SymbolKindArray, m.ToolsNode, nil, kids))
	}
	if m.NativeToolsNode != nil {
		var kids []protocol.DocumentSymbol
		for _, nt := range m.NativeTools {
			mod, _ := checker.Str(nt.Module)
			var names []protocol.DocumentSymbol
			for _, n := range nt.Names {
				s, _ := checker.Str(n)
				names = append(names, sym(s, "native tool", protocol.SymbolKindFunction, n, n, nil))
			}
			kids = append(kids, sym(mod, "full-trust module", protocol.SymbolKindModule, nt.Node, nt.Module, names))
		}
		out = append(out, sym("nativeTools", "", protocol.SymbolKindArray, m.NativeToolsNode, nil, kids))
	}
	if m.CapabilitiesNode != nil {
		var kids []protocol.DocumentSymbol
		if m.HostNode != nil {
			var hs []protocol.DocumentSymbol
			for _, h := range m.Host {
				s, _ := checker.Str(h)
				hs = append(hs, sym(s, "host method", protocol.SymbolKindMethod, h, h, nil))
			}
			kids = append(kids, sym("host", "", protocol.SymbolKindArray, m.HostNode, nil, hs))
		}
		if m.FetchNode != nil {
			var fs []protocol.DocumentSymbol
			for _, fc := range m.Fetch {
				s, _ := checker.Str(fc.Domain)
				fs = append(fs, sym(s, "fetch domain", protocol.SymbolKindString, fc.Node, fc.Domain, nil))
			}
			kids = append(kids, sym("fetch", "", protocol.SymbolKindArray, m.FetchNode, nil, fs))
		}
		if m.CredentialsNode != nil {
			var cs []protocol.DocumentSymbol
			for _, c := range m.Credentials {
				s, _ := checker.Str(c.Name)
				cs = append(cs, sym(s, "credential", protocol.SymbolKindKey, c.Node, c.Name, nil))
			}
			kids = append(kids, sym("credentials", "", protocol.SymbolKindArray, m.CredentialsNode, nil, cs))
		}
		out = append(out, sym("capabilities", "", protocol.SymbolKindObject, m.CapabilitiesNode, nil, kids))
	}
	return out, nil
}
