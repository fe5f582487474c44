package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
)

// NativeExportUndeclared points at a tools-map entry whose name no
// nativeTools entry declares: the host ignores it.
var NativeExportUndeclared = &checker.Rule{
	Code:     "native-export-undeclared",
	Severity: checker.Info,
	Title:    "native tool exported but not declared (ignored at runtime)",
	Doc: "Only the names listed in `nativeTools[].names` register; other entries of the module's tools map " +
		"are ignored at runtime, and the install review card does not show them. Declare the tool if you " +
		"meant to ship it, or remove it from the module.",
	Lang:   "json",
	Before: "\"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMessage\"] }]\n// native/telegram.js also exports \"tg.readChat\"",
	After:  "\"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMessage\", \"tg.readChat\"] }]",
	Fix:    "Add the name to that module's `names` in plugin.json.",
	Run: func(pass *checker.Pass) {
		mf := pass.Plugin.ManifestFile
		reported := map[fileSpan]bool{}
		for _, m := range nativeModules(pass) {
			if !m.readable() {
				continue
			}
			tm := m.toolMap(pass)
			if tm == nil {
				continue
			}
			declared := m.declared()
			seen := map[string]bool{}
			for _, e := range tm.Entries {
				at := fileSpan{e.File, e.KeySpan}
				if declared[e.Name] || seen[e.Name] || reported[at] {
					continue
				}
				seen[e.Name], reported[at] = true, true
				wrapped := e.Name == "tools" && tm.Export == "default"
				d := checker.Diagnostic{
					File: e.File, Span: e.KeySpan, Tags: []checker.Tag{checker.Unnecessary},
					Message: fmt.Sprintf("%q is exported but not declared in plugin.json nativeTools names: ignored at runtime", e.Name),
				}
				if wrapped {
					d.Message = "the default export is itself the tools map: this defines one tool named \"tools\" (ignored at runtime); export the map directly"
				}
				entry := m.Entries[0]
				if names := entry.Node.Get("names"); names != nil {
					d.Related = []checker.Related{{File: checker.ManifestName, Span: checker.SpanOf(names), Message: "the names declared for " + m.Rel}}
				} else {
					d.Related = []checker.Related{m.declaredHere()}
				}
				if !wrapped {
					if edit, err := addNativeName(mf, entry, e.Name); err == nil {
						d.Fixes = []checker.Fix{{Title: fmt.Sprintf("Add %q to names in plugin.json", e.Name), Edits: []checker.Edit{edit}}}
					}
				}
				pass.Report(d)
			}
		}
	},
}

// addNativeName appends name to the entry's names array, creating the
// array when the entry has none.
func addNativeName(mf *checker.File, entry *checker.NativeTool, name string) (checker.Edit, error) {
	if names := entry.Node.Get("names"); names != nil {
		return jsonedit.AppendToArray(mf, names, jsonString(name))
	}
	return jsonedit.InsertMember(mf, entry.Node, "names", "["+jsonString(name)+"]")
}
