package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
)

// NativeModuleNotESM reports a native module the host cannot import: a
// TypeScript (or other non-.js/.mjs) file, a CommonJS module, CommonJS
// leftovers in an ES module, or a file that is not valid JavaScript.
var NativeModuleNotESM = &checker.Rule{
	Code:     "native-module-not-esm",
	Severity: checker.Error,
	Title:    "native module is not compiled ESM",
	Doc: "The host imports a native module as a compiled ES module (`.js` or `.mjs`) from the plugin's " +
		"version directory; it does not compile TypeScript and has no CommonJS loader. Point `module` at " +
		"the build output, and export the tools map with `export const tools = { … }` (or " +
		"`export default { … }`), not `module.exports`. In an ES module `module`, `exports` and `require` " +
		"do not exist: `module.exports = …` throws when the module loads. A module that does not parse is " +
		"reported here too (a `.js` file still holding type annotations was not compiled).",
	Lang:   "js",
	Before: "// native/telegram.js\nmodule.exports = { tools: { \"tg.sendMessage\": sendMessage } };",
	After:  "// native/telegram.js\nexport const tools = { \"tg.sendMessage\": sendMessage };",
	Run: func(pass *checker.Pass) {
		for _, m := range nativeModules(pass) {
			ext := path.Ext(m.Rel)
			if m.Mod == nil {
				pass.Report(checker.Diagnostic{
					File: checker.ManifestName, Span: checker.SpanOf(m.ModuleNode),
					Message: notESMByExtension(m.Rel, ext),
				})
				continue
			}
			mod := m.Mod
			if len(mod.Errors) > 0 {
				e := mod.Errors[0]
				msg := fmt.Sprintf("%s is not valid JavaScript: %s (a native module must be compiled ESM)", m.Rel, e.Message)
				if e.Limit {
					msg = fmt.Sprintf("%s is not read: %s", m.Rel, e.Message)
				}
				pass.Report(checker.Diagnostic{
					File: m.Rel, Span: checker.Span{Start: e.Offset, End: e.Offset},
					Message: msg,
					Related: []checker.Related{m.declaredHere()},
				})
				continue
			}
			if mod.Kind == jsmodule.CommonJS {
				mk := commonJSProof(mod.CommonJS)
				pass.Report(checker.Diagnostic{
					File: m.Rel, Span: mk.Span,
					Message: fmt.Sprintf("%s is a CommonJS module (`%s`): a native module must be compiled ESM, e.g. `export const tools = { … }`", m.Rel, mk.Text),
					Related: []checker.Related{m.declaredHere()},
				})
				continue
			}
			for _, mk := range mod.CommonJS {
				msg := fmt.Sprintf("`%s` does not exist in an ES module: it throws a ReferenceError at runtime", mk.Text)
				if mk.Text == "require" {
					msg = "`require` is not defined in an ES module: use `import` (or `createRequire(import.meta.url)`)"
				} else if mk.Text == "module.exports" {
					msg = "`module.exports` does not exist in an ES module: it throws a ReferenceError when the module loads; use `export`"
				}
				pass.Report(checker.Diagnostic{File: m.Rel, Span: mk.Span, Message: msg})
			}
		}
	},
}

func notESMByExtension(rel, ext string) string {
	switch ext {
	case ".ts", ".mts", ".cts", ".tsx":
		return fmt.Sprintf("%s is TypeScript source: a native module must be compiled ESM (.js or .mjs); point `module` at the compiled file", rel)
	case ".cjs":
		return fmt.Sprintf("%s is a CommonJS file (.cjs): a native module must be compiled ESM (.js or .mjs)", rel)
	case "":
		return fmt.Sprintf("%s has no extension: a native module must be a compiled ESM .js or .mjs file", rel)
	}
	return fmt.Sprintf("%s is a %s file: a native module must be a compiled ESM .js or .mjs file", rel, ext)
}

// commonJSProof picks the marker that shows best that a module is
// CommonJS: module.exports, then exports.x, then require.
func commonJSProof(marks []jsmodule.Mark) jsmodule.Mark {
	for _, prefix := range []string{"module.exports", "exports"} {
		for _, mk := range marks {
			if strings.HasPrefix(mk.Text, prefix) {
				return mk
			}
		}
	}
	return marks[0]
}
