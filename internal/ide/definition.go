package ide

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Target is where a definition is: a plugin-relative file and a span in it.
type Target struct {
	File string
	Span checker.Span
}

// Definition goes from plugin.json to the code: a page path to the page's
// default export, a module path to the module, a native name to its entry
// in the module's tools map. nil when the cursor is on none of these, or
// the target does not exist.
func (vw *View) Definition(rel string, off int) []Target {
	p := vw.Plugin
	if p == nil || rel != checker.ManifestName {
		return nil
	}
	n := nodeAt(p.Manifest.Root, off)
	if n == nil {
		return nil
	}
	where := pathOfNode(n)
	at := func(target string, sp checker.Span) []Target {
		if _, err := p.ReadFile(target); err != nil {
			return nil
		}
		return []Target{{File: target, Span: sp}}
	}
	switch {
	case matchPath(where, "tools", "[]", "page") && len(where) == 3:
		pg, _ := checker.Str(n)
		target, ok := p.ResolvePage(pg)
		if !ok {
			return nil
		}
		tf, err := p.ReadFile(target)
		if err != nil {
			return nil
		}
		return at(target, checker.DefaultExportSpan(tf.Text))
	case matchPath(where, "nativeTools", "[]", "module") && len(where) == 3:
		mod, _ := checker.Str(n)
		c, err := checker.Clean(mod)
		if err != nil {
			return nil
		}
		return at(c, checker.Span{})
	case matchPath(where, "nativeTools", "[]", "names", "[]") && len(where) == 4:
		name, _ := checker.Str(n)
		ntNode := n.Parent.Parent
		for _, nt := range p.Manifest.NativeTools {
			if nt.Node != ntNode {
				continue
			}
			mod, _ := checker.Str(nt.Module)
			m, _ := moduleInfo(p, mod)
			c, err := checker.Clean(mod)
			if m == nil || err != nil {
				continue
			}
			if e := m.Tools.Lookup(name); e != nil {
				return at(c, checker.Span{Start: e.KeySpan.Start, End: e.KeySpan.End})
			}
			return at(c, checker.Span{})
		}
	}
	return nil
}
