package rules

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// NativeModuleOutside reports a native module path that leaves the plugin
// directory.
var NativeModuleOutside = &checker.Rule{
	Code:     "native-module-outside",
	Severity: checker.Error,
	Title:    "native module path leaves the plugin directory",
	Doc: "A native module runs with full trust, and what the installer reviews is the version directory " +
		"under its source-tree hash. A module outside that directory (a path with `..`, an absolute path, " +
		"or a symlink whose target lies outside) would run bytes nobody approved, so it is refused. Copy " +
		"the compiled module into the plugin directory and point `module` at the copy.",
	Lang:   "json",
	Before: "\"nativeTools\": [{ \"module\": \"../common/telegram.js\", \"names\": [\"tg.sendMessage\"] }]",
	After:  "\"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMessage\"] }]",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		for _, nt := range p.Manifest.NativeTools {
			mod, ok := checker.Str(nt.Module)
			if !ok || mod == "" {
				continue
			}
			span := checker.SpanOf(nt.Module)
			c, err := checker.Clean(mod)
			if err != nil {
				pass.Reportf(checker.ManifestName, span, "module %q leaves the plugin directory: use a relative path inside it, without '..'", mod)
				continue
			}
			if p.CheckInside(c) != nil {
				pass.Reportf(checker.ManifestName, span, "module %q resolves through a symlink to a file outside the plugin directory; copy the module in", mod)
			}
		}
	},
}
