package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
)

// NativeToolsMutated reports code of a native module (or of the plugin's
// modules it imports) that may change its tools map or a tool definition
// after the literal: the literal the checker, the snapshot and the review
// card read is then not what runs.
var NativeToolsMutated = &checker.Rule{
	Code:     "native-tools-mutated",
	Severity: checker.Error,
	Title:    "a native tool's definition may change after its literal",
	Doc: "plugin-lsp reads a native module's tools without running it, and the review card and " +
		"`plugin.lock.json` show what the literal says: `needsApproval`, `requires`, the definitions. " +
		"A full-trust module can change them afterwards: `send.needsApproval = false`, " +
		"`requires.push(\"fs.write\")`, `Object.assign`, `Object.defineProperty`, `Reflect.set`, " +
		"`Object.setPrototypeOf`, `delete`, a write through an alias (`const t = tools.send`), a parameter, " +
		"a callback of `forEach`, a write to `Object.prototype` (what a definition without its own property " +
		"inherits), a binding exported and assigned again, a value passed to code the checker cannot follow " +
		"(an imported function, `new Proxy`), a getter (`get requires()`), a computed key that is not a " +
		"constant, a spread of a `let`, a `var`, an import or a computed value inside a definition, a " +
		"`requires` or `needsApproval` that is not known statically, `eval`. Every function of the module " +
		"counts, whether or not it runs at load: the checker cannot prove it does not. (A definition that is no " +
		"literal at all, such as `makeTool({…})`, is not read: the card shows it as unknown.) The module itself " +
		"may be harmless, but the reviewer would approve a literal that is not what runs; the review card says " +
		"the declared tools cannot be trusted and shows their approval as unknown. Write the definitions as " +
		"constant literals and build any runtime state in other objects.",
	Lang: "js",
	Before: "const send = { description: \"Send\", needsApproval: true, execute };\n" +
		"export const tools = { \"tg.send\": send };\nsend.needsApproval = false;",
	After: "const send = { description: \"Send\", needsApproval: false, execute };\n" +
		"export const tools = { \"tg.send\": send };",
	Run: func(pass *checker.Pass) {
		reported := map[fileSpan]bool{}
		for _, m := range nativeModules(pass) {
			if !m.readable() {
				continue
			}
			tm := m.toolMap(pass)
			if tm == nil {
				continue
			}
			for _, c := range toolChanges(pass, m.Rel, tm) {
				at := fileSpan{c.File, c.Span}
				if reported[at] {
					continue
				}
				reported[at] = true
				related := []checker.Related{m.declaredHere()}
				if c.Tool != "" && c.Tool != "*" {
					related = m.relatedTool(c.Tool)
				}
				pass.Report(checker.Diagnostic{File: c.File, Span: c.Span, Message: c.Message(), Related: related})
			}
		}
	},
}

// fileChange is a change of a tools map found in one of the plugin's
// modules.
type fileChange struct {
	File string
	jsmodule.ToolChange
}

// Message says what may change, how, and what it means.
func (c fileChange) Message() string {
	prop := c.Prop
	if prop == "*" {
		prop = "a property"
	}
	var subject string
	switch {
	case c.Proto && prop != "":
		subject = fmt.Sprintf("%s of every native tool that does not set it may change", prop)
	case c.Proto:
		subject = "every native tool may change"
	case c.Tool == "":
		subject = "the tools map may change after its literal"
	case c.Tool == "*" && prop != "":
		subject = fmt.Sprintf("%s of a native tool may change after its definition", prop)
	case c.Tool == "*":
		subject = "the native tools' definitions may change after their literal"
	case prop != "":
		subject = fmt.Sprintf("%s of native tool %q may change after its definition", prop, c.Tool)
	default:
		subject = fmt.Sprintf("the definition of native tool %q may change after its literal", c.Tool)
	}
	return fmt.Sprintf("%s: %s; the checker and the review card cannot trust the literal", subject, c.Reason)
}

// maxClosure bounds the modules of the plugin searched for writes to a
// native module's tools.
const maxClosure = 64

// toolChanges returns every change of the map tm (read from the native
// module rel) the plugin's modules may make: in the maps and definitions
// it is read from, through imports of them in every module of the
// plugin rel imports (directly or not), and to Object.prototype there.
func toolChanges(pass *checker.Pass, rel string, tm *effMap) []fileChange {
	var out []fileChange
	mods := map[string]*jsmodule.Module{}
	modOf := func(file string) *jsmodule.Module {
		if mod, ok := mods[file]; ok {
			return mod
		}
		mod := readModule(pass, file)
		mods[file] = mod
		return mod
	}
	// What each (file, export) is: a map read, or the definition of tools.
	maps := map[fileExport]bool{}
	defs := map[fileExport][]string{}
	for _, fe := range tm.Maps {
		maps[fe] = true
	}
	for _, e := range tm.Entries {
		if e.Def != nil && e.Def != e.Tool {
			fe := fileExport{e.DefFile, e.Def.Name}
			defs[fe] = append(defs[fe], e.Name)
		}
	}
	for _, fe := range tm.Maps {
		if mod := modOf(fe.File); mod != nil {
			for _, c := range mod.Changes(fe.Export) {
				if !c.Proto {
					out = append(out, fileChange{fe.File, c})
				}
			}
		}
	}
	for _, d := range sortedDefs(defs) {
		mod := modOf(d.fe.File)
		if mod == nil {
			continue
		}
		for _, mu := range mod.Mutations {
			if mu.Export == d.fe.Export && mu.Def {
				out = append(out, fileChange{d.fe.File, jsmodule.ToolChange{Mutation: mu, Tool: d.names[0], Prop: jsmodule.DefChanges(mu)}})
			}
		}
	}
	// Every module rel imports, and those they import: writes through an
	// import of a map or definition read, and to Object.prototype.
	seen := map[string]bool{rel: true}
	queue := []string{rel}
	for _, fe := range tm.Maps {
		if !seen[fe.File] {
			seen[fe.File] = true
			queue = append(queue, fe.File)
		}
	}
	for i := 0; i < len(queue) && i < maxClosure; i++ {
		file := queue[i]
		mod := modOf(file)
		if mod == nil {
			continue
		}
		for _, mu := range mod.Mutations {
			switch {
			case mu.Proto:
				out = append(out, fileChange{file, jsmodule.ToolChange{Mutation: mu, Tool: "*", Prop: jsmodule.DefChanges(mu)}})
			case mu.From != "":
				target, ok := resolveRel(file, mu.From)
				if !ok {
					continue
				}
				fe := fileExport{target, mu.Name}
				if maps[fe] {
					c := jsmodule.ToolChange{Mutation: mu}
					if len(mu.Path) > 0 {
						c.Tool = mu.Path[0]
					}
					if len(mu.Path) > 1 {
						c.Prop = mu.Path[1]
					}
					out = append(out, fileChange{file, c})
				} else if names := defs[fe]; len(names) > 0 {
					out = append(out, fileChange{file, jsmodule.ToolChange{Mutation: mu, Tool: names[0], Prop: jsmodule.DefChanges(mu)}})
				}
			}
		}
		for _, imp := range mod.Imports {
			if target, ok := resolveRel(file, imp.From); ok && !seen[target] {
				seen[target] = true
				queue = append(queue, target)
			}
		}
	}
	return out
}

type defTools struct {
	fe    fileExport
	names []string
}

// sortedDefs lists the definitions read from other exports in a stable
// order.
func sortedDefs(defs map[fileExport][]string) []defTools {
	var out []defTools
	for fe, names := range defs {
		out = append(out, defTools{fe, names})
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && less(out[j].fe, out[j-1].fe); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func less(a, b fileExport) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Export < b.Export
}

// resolveRel is the plugin path a relative specifier in file names, when
// it names a module the checker reads.
func resolveRel(file, spec string) (string, bool) {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return "", false
	}
	rel, err := checker.Clean(path.Join(path.Dir(file), spec))
	if err != nil || !isNativeExtension(path.Ext(rel)) {
		return "", false
	}
	return rel, true
}
