package ide

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	checkernative "github.com/plugin-lsp/plugin-lsp/internal/checker/native"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
)

// NativeTool is a declared native tool as the editor shows it: where its
// module is and the module's hash (what a run's approval is remembered by).
type NativeTool struct {
	Name       string
	Module     string // plugin-relative, cleaned
	ModuleHash string // "sha256:<hex>", "" when the module cannot be read
}

// NativeOf returns the declared native tool named tool (the last
// declaration wins, as at load); ok false when no nativeTools entry names
// it or a function tool of that name exists (function tools run first).
func NativeOf(p *checker.Plugin, tool string) (NativeTool, bool) {
	if p == nil || p.Manifest == nil || p.Manifest.FunctionTool(tool) != nil {
		return NativeTool{}, false
	}
	var out NativeTool
	ok := false
	for _, n := range checkernative.Tools(p) {
		if n.Name == tool {
			out, ok = NativeTool{Name: n.Name, Module: n.Module, ModuleHash: n.ModuleHash}, true
		}
	}
	return out, ok
}

// NativeAnchors lists the declared native tools shown in file rel: in
// plugin.json each name of nativeTools[].names, in a native module the key
// of each tool its tools map holds that is declared for that module.
// Undeclared exports get no lens: they are not runnable.
func NativeAnchors(p *checker.Plugin, rel string) []Anchor {
	if p == nil || p.Manifest == nil {
		return nil
	}
	var out []Anchor
	var mod *jsmodule.Module
	read := false
	for _, n := range checkernative.Tools(p) {
		if n.Name == "" || p.Manifest.FunctionTool(n.Name) != nil {
			continue
		}
		if rel == checker.ManifestName {
			out = append(out, Anchor{Tool: n.Name, Span: checker.SpanOf(n.NameNode)})
			continue
		}
		if n.Module != rel {
			continue
		}
		if !read {
			read = true
			if f, err := p.ReadFile(rel); err == nil {
				mod = jsmodule.ReadExports(f.Text)
			}
		}
		if mod == nil || mod.Tools == nil {
			continue
		}
		if e := mod.Tools.Lookup(n.Name); e != nil {
			out = append(out, Anchor{Tool: n.Name, Span: e.KeySpan})
		}
	}
	return out
}
