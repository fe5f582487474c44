package rules

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
)

// NativeExportsUnknown marks the places of a native module that make its
// tools map unknowable statically (a spread of something not a constant
// object, a call, a computed key that is not a constant string, a
// re-export from another file, syntax this checker cannot read). While the
// map is unknowable, native-name-not-exported stays silent rather than
// guess.
var NativeExportsUnknown = &checker.Rule{
	Code:     "native-exports-unknown",
	Severity: checker.Info,
	Title:    "native tool names cannot be checked statically",
	Doc: "plugin-lsp reads a native module's tools map without running it. It follows top-level " +
		"constants, `Object.freeze`, spreads of constant objects, constant computed keys " +
		"(`[\"tg.\" + \"send\"]`, `[NAME]`), top-level `tools.x = …` additions, and relative imports and " +
		"re-exports of the plugin's own `.js`/`.mjs` files (up to 8 hops); anything else (a spread of " +
		"a computed value, `makeTools()`, `[dynamicKey]`, a module outside the plugin) " +
		"could add names it cannot see. The module may well be right: this only tells you that the " +
		"names in plugin.json are not checked against it. Write the map as a literal to get the checks back.",
	Lang:   "js",
	Before: "export const tools = { ...makeTelegramTools() };",
	After:  "export const tools = {\n  \"tg.sendMessage\": sendMessage,\n  \"tg.readChat\": readChat,\n};",
	Run: func(pass *checker.Pass) {
		reported := map[fileSpan]bool{}
		for _, m := range nativeModules(pass) {
			if m.Mod == nil || len(m.Mod.Errors) > 0 || m.Mod.Kind == jsmodule.CommonJS {
				continue
			}
			if u := m.Mod.Unreadable; u != nil {
				pass.Report(checker.Diagnostic{File: m.Rel, Span: u.Span,
					Message: u.Reason + ": names cannot be checked statically", Related: []checker.Related{m.declaredHere()}})
				continue
			}
			tm := m.toolMap(pass)
			if tm == nil {
				continue
			}
			for _, u := range tm.Unknowable {
				if reported[fileSpan{u.File, u.Span}] {
					continue
				}
				reported[fileSpan{u.File, u.Span}] = true
				pass.Report(checker.Diagnostic{File: u.File, Span: u.Span,
					Message: u.Reason + ": names cannot be checked statically", Related: []checker.Related{m.declaredHere()}})
			}
		}
	},
}
