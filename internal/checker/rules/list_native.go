package rules

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// nativeRules are the checks of native tool modules.
func nativeRules() []*checker.Rule {
	return []*checker.Rule{
		NativeModuleNotESM,
		NativeNameNotExported,
		NativeExportUndeclared,
		NativeAlwaysGate,
		NativeUnknownRequires,
		NativeExportsUnknown,
		NativeToolsMutated,
		NativeReachAtRun,
	}
}

// nativeModule is one module file named by nativeTools, with every entry
// naming it (two entries may share a module) and what esm read from it.
type nativeModule struct {
	Rel     string
	File    *checker.File
	Entries []*checker.NativeTool
	// ModuleNode is the first entry's "module" string (where manifest-side
	// diagnostics about the module sit).
	ModuleNode *jsonpos.Node
	// Mod is nil unless the file is a .js or .mjs module.
	Mod *jsmodule.Module
}

// isNativeExtension reports whether ext is one the host loads as a
// module: compiled ESM, .js or .mjs.
func isNativeExtension(ext string) bool { return ext == ".js" || ext == ".mjs" }

// nativeModules returns the modules named by nativeTools that exist inside
// the plugin directory (missing and outside modules are reported by
// native-module-missing and native-module-outside), in manifest order.
// Each module is read once per content through the cache.
func nativeModules(pass *checker.Pass) []*nativeModule {
	p := pass.Plugin
	var out []*nativeModule
	byRel := map[string]*nativeModule{}
	for _, nt := range p.Manifest.NativeTools {
		s, ok := checker.Str(nt.Module)
		if !ok || s == "" {
			continue
		}
		rel, err := checker.Clean(s)
		if err != nil {
			continue
		}
		if m := byRel[rel]; m != nil {
			m.Entries = append(m.Entries, nt)
			continue
		}
		f, err := p.ReadFile(rel)
		if err != nil {
			continue
		}
		m := &nativeModule{Rel: rel, File: f, Entries: []*checker.NativeTool{nt}, ModuleNode: nt.Module}
		if isNativeExtension(path.Ext(rel)) {
			m.Mod = pass.Cache.Memo("esm", f.Text, func() any { return jsmodule.ReadExports(f.Text) }).(*jsmodule.Module)
		}
		byRel[rel] = m
		out = append(out, m)
	}
	return out
}

// readable reports whether the module's exports can be compared with the
// manifest: an ES module (or a module with no module syntax at all) that
// parsed. CommonJS and syntax errors are native-module-not-esm's, newer
// syntax native-exports-unknown's.
func (m *nativeModule) readable() bool {
	return m.Mod != nil && m.Mod.Kind != jsmodule.CommonJS && len(m.Mod.Errors) == 0 && m.Mod.Unreadable == nil
}

// declared returns the names declared for the module across its entries.
func (m *nativeModule) declared() map[string]bool {
	out := map[string]bool{}
	for _, nt := range m.Entries {
		for _, n := range nt.Names {
			if s, ok := checker.Str(n); ok {
				out[s] = true
			}
		}
	}
	return out
}

// declaredHere points from a module diagnostic back to the manifest.
func (m *nativeModule) declaredHere() checker.Related {
	return checker.Related{File: checker.ManifestName, Span: checker.SpanOf(m.ModuleNode),
		Message: "declared in nativeTools as " + m.Rel}
}

// effTool is a tools-map entry with the file it is written in (a module
// may take entries from the plugin's other modules), and its definition:
// the entry itself, or the object it imports from another module of the
// plugin (nil when neither can be read).
type effTool struct {
	File string
	*jsmodule.Tool
	Def     *jsmodule.Tool
	DefFile string
}

// effUnknown is a place, in File, that makes the map unknowable.
type effUnknown struct {
	File string
	jsmodule.Unknown
}

// effMap is a module's tools map with what it takes from other modules of
// the plugin followed.
type effMap struct {
	Export     string        // "tools" or "default"
	Span       jsmodule.Span // the map in the module itself
	Entries    []effTool
	Unknowable []effUnknown
	// Maps are the maps read, by file and export: the module's own and
	// those it takes entries from.
	Maps []fileExport
}

// fileExport is an export of one of the plugin's modules.
type fileExport struct{ File, Export string }

// maxFollow bounds the chain of modules followed from a native module.
const maxFollow = 8

// toolMap returns the module's tools map, following relative imports,
// re-exports and `export *` into the plugin's other .js/.mjs files (tsc
// emits one file per source file); nil when the module has no tools or
// default export. Names that live outside the plugin (packages) or in a
// module that cannot be read stay unknowable.
func (m *nativeModule) toolMap(pass *checker.Pass) *effMap {
	if m.Mod == nil || m.Mod.Tools == nil {
		return nil
	}
	tm := m.Mod.Tools
	out := &effMap{Export: tm.Export, Span: tm.Span}
	followMap(pass, m.Rel, tm, out, map[string]bool{m.Rel + "#" + tm.Export: true}, 0)
	return out
}

func followMap(pass *checker.Pass, file string, tm *jsmodule.ToolMap, out *effMap, seen map[string]bool, depth int) {
	out.Maps = append(out.Maps, fileExport{file, tm.Export})
	for _, e := range tm.Entries {
		def, defFile := resolveDef(pass, file, e)
		out.Entries = append(out.Entries, effTool{File: file, Tool: e, Def: def, DefFile: defFile})
	}
	for _, u := range tm.Unknowable {
		if target, mod := followable(pass, file, u, depth); mod != nil {
			key := target + "#" + u.Name
			if seen[key] {
				continue // a cycle: nothing new there
			}
			if next := mod.ExportedMap(u.Name); next != nil {
				seen[key] = true
				followMap(pass, target, next, out, seen, depth+1)
				continue
			}
		}
		out.Unknowable = append(out.Unknowable, effUnknown{file, u})
	}
}

// resolveDef returns the definition of an entry: the entry itself when
// it is an object, or the exported object it imports (through re-exports)
// from the plugin's other modules.
func resolveDef(pass *checker.Pass, file string, t *jsmodule.Tool) (*jsmodule.Tool, string) {
	for depth := 0; depth < maxFollow; depth++ {
		if t.Def {
			return t, file
		}
		target, mod := followable(pass, file, jsmodule.Unknown{From: t.ValueFrom, Name: t.ValueName}, 0)
		if mod == nil || mod.Defs[t.ValueName] == nil {
			return nil, ""
		}
		t, file = mod.Defs[t.ValueName], target
	}
	return nil, ""
}

// followable returns the plugin module a relative specifier in file
// names, when it can be read.
func followable(pass *checker.Pass, file string, u jsmodule.Unknown, depth int) (string, *jsmodule.Module) {
	if u.From == "" || u.Name == "" || u.Name == "*" || depth >= maxFollow {
		return "", nil
	}
	if !strings.HasPrefix(u.From, "./") && !strings.HasPrefix(u.From, "../") {
		return "", nil
	}
	rel, err := checker.Clean(path.Join(path.Dir(file), u.From))
	if err != nil || !isNativeExtension(path.Ext(rel)) {
		return "", nil
	}
	if mod := readModule(pass, rel); mod != nil {
		return rel, mod
	}
	return "", nil
}

// readModule reads one of the plugin's modules, nil when it cannot be
// read or is not an ES module that parses.
func readModule(pass *checker.Pass, rel string) *jsmodule.Module {
	f, err := pass.Plugin.ReadFile(rel)
	if err != nil {
		return nil
	}
	mod := pass.Cache.Memo("esm", f.Text, func() any { return jsmodule.ReadExports(f.Text) }).(*jsmodule.Module)
	if mod.Kind == jsmodule.CommonJS || len(mod.Errors) > 0 || mod.Unreadable != nil {
		return nil
	}
	return mod
}

// fileSpan identifies a place across the plugin's files (to report it once).
type fileSpan struct {
	file string
	span jsmodule.Span
}

// relatedTool points from a module diagnostic about tool name to where
// plugin.json declares it (or to the module entry when it does not).
func (m *nativeModule) relatedTool(name string) []checker.Related {
	for _, nt := range m.Entries {
		for _, n := range nt.Names {
			if s, ok := checker.Str(n); ok && s == name {
				return []checker.Related{{File: checker.ManifestName, Span: checker.SpanOf(n), Message: "declared in plugin.json"}}
			}
		}
	}
	return []checker.Related{m.declaredHere()}
}

// nearest returns the candidate closest to s (case-insensitive edit
// distance at most a third of its length, at least 2), or "".
func nearest(s string, candidates []string) string {
	best, bestD := "", max(2, len(s)/3)+1
	ls := strings.ToLower(s)
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		if c == s {
			continue
		}
		if d := suggest.Distance(ls, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// didYouMean returns " (did you mean `x`?)" or "".
func didYouMean(s string, candidates []string) string {
	if n := nearest(s, candidates); n != "" {
		return fmt.Sprintf(" (did you mean `%s`?)", n)
	}
	return ""
}
