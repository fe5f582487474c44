package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/analysis"
)

// Definition goes from plugin.json to the code: a page path to the page's
// default export, a module path to the module, a native name to its entry
// in the module's tools map.
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	sn, rel := s.snapshotOf(params.TextDocument.URI)
	if sn == nil || rel != analysis.ManifestName {
		return protocol.LocationSlice{}, nil
	}
	f := sn.file(rel)
	off := sn.enc.fromPosition(f, params.Position)
	p := sn.plugin
	n := nodeAt(p.Manifest.Root, off)
	if n == nil {
		return protocol.LocationSlice{}, nil
	}
	where := pathOfNode(n)
	loc := func(target string, sp analysis.Span) protocol.DefinitionResult {
		tf, err := p.ReadFile(target)
		if err != nil {
			return protocol.LocationSlice{}
		}
		return protocol.LocationSlice{{URI: uriFor(sn.docs, p.Abs(target)), Range: sn.enc.toRange(tf, sp)}}
	}
	switch {
	case matchPath(where, "tools", "[]", "page") && len(where) == 3:
		pg, _ := analysis.Str(n)
		target, ok := p.ResolvePage(pg)
		if !ok {
			return protocol.LocationSlice{}, nil
		}
		tf, err := p.ReadFile(target)
		if err != nil {
			return protocol.LocationSlice{}, nil
		}
		return loc(target, defaultExportSpan(tf.Text)), nil
	case matchPath(where, "nativeTools", "[]", "module") && len(where) == 3:
		mod, _ := analysis.Str(n)
		c, err := analysis.Clean(mod)
		if err != nil {
			return protocol.LocationSlice{}, nil
		}
		return loc(c, analysis.Span{}), nil
	case matchPath(where, "nativeTools", "[]", "names", "[]") && len(where) == 4:
		name, _ := analysis.Str(n)
		ntNode := n.Parent.Parent
		for _, nt := range p.Manifest.NativeTools {
			if nt.Node != ntNode {
				continue
			}
			mod, _ := analysis.Str(nt.Module)
			m, _ := moduleInfo(p, mod)
			c, err := analysis.Clean(mod)
			if m == nil || err != nil {
				continue
			}
			if e := m.Tools.Lookup(name); e != nil {
				return loc(c, analysis.Span{Start: e.KeySpan.Start, End: e.KeySpan.End}), nil
			}
			return loc(c, analysis.Span{}), nil
		}
	}
	return protocol.LocationSlice{}, nil
}
