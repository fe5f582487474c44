package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// NativeNameNotExported reports a name in nativeTools[].names that the
// module's tools map does not define: the host would find no tool to
// register under it.
var NativeNameNotExported = &checker.Rule{
	Code:     "native-name-not-exported",
	Severity: checker.Error,
	Title:    "declared native name is not in the module's tools map",
	Doc: "Each name in `nativeTools[].names` must be a key of the module's `tools` export (or, when the " +
		"module has no `tools` export, of its default export): the host registers the definition found " +
		"under that key. The default export is itself the map: `export default { tools: { … } }` defines a " +
		"single tool named `tools`. When the map cannot be read statically (see native-exports-unknown) " +
		"this rule stays silent.",
	Lang:   "json",
	Before: "\"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMesage\"] }]",
	After:  "\"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMessage\"] }]",
	Run: func(pass *checker.Pass) {
		for _, m := range nativeModules(pass) {
			if !m.readable() {
				continue
			}
			tm := m.toolMap(pass)
			if tm != nil && len(tm.Unknowable) > 0 {
				continue
			}
			var keys []string
			has := map[string]bool{}
			if tm != nil {
				for _, e := range tm.Entries {
					keys = append(keys, e.Name)
					has[e.Name] = true
				}
			}
			hasToolsKey := tm != nil && tm.Export == "default" && has["tools"]
			for _, nt := range m.Entries {
				for _, n := range nt.Names {
					name, ok := checker.Str(n)
					if !ok {
						continue
					}
					d := checker.Diagnostic{File: checker.ManifestName, Span: checker.SpanOf(n)}
					switch {
					case tm == nil:
						d.Message = fmt.Sprintf("%q is not exported: %s has no `tools` export and no default export", name, m.Rel)
						d.Related = []checker.Related{{File: m.Rel, Message: "the module"}}
					case has[name]:
						continue
					case hasToolsKey:
						d.Message = fmt.Sprintf("%q is not exported: the default export of %s is itself the tools map, and it holds one tool named \"tools\"; export the map directly (`export const tools = { … }`)", name, m.Rel)
						d.Related = []checker.Related{{File: m.Rel, Span: tm.Span, Message: "the default export"}}
					default:
						d.Message = fmt.Sprintf("%q is not exported by %s: its `%s` export has no such key%s", name, m.Rel, tm.Export, didYouMean(name, keys))
						d.Related = []checker.Related{{File: m.Rel, Span: tm.Span, Message: "the tools map"}}
						if use := nearest(name, keys); use != "" && !m.declared()[use] {
							if fx, ok := useInstead(pass.Plugin, n, use, "exported by "+m.Rel); ok {
								d.Fixes = []checker.Fix{fx}
							}
						}
					}
					pass.Report(d)
				}
			}
		}
	},
}
