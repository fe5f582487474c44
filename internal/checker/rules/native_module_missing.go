package rules

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// NativeModuleMissing reports a native module file that does not exist.
var NativeModuleMissing = &checker.Rule{
	Code:     "native-module-missing",
	Severity: checker.Error,
	Title:    "native module not found",
	Doc: "`nativeTools[].module` must name a compiled ESM file (`.js`/`.mjs`) inside the plugin directory. " +
		"The installer refuses a plugin whose module is missing. A module that is there but cannot be read (a FIFO, a device, a file over 64 MiB) is reported here too. Build your module into that path (native " +
		"modules are compiled; the source itself is not loaded).",
	Lang:   "json",
	Before: "\"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMessage\"] }]   // no native/telegram.js",
	After:  "// native/telegram.js\nexport const tools = {\n  \"tg.sendMessage\": { description: \"…\", async execute(args, ctx) { … } },\n};",
	Fix:    "When a module a typo away exists, use it (the preferred fix). Otherwise create an ESM module stub exporting `tools` with an entry `{ description, execute }` for each declared name.",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		for _, nt := range p.Manifest.NativeTools {
			mod, ok := checker.Str(nt.Module)
			if !ok || mod == "" {
				continue
			}
			c, err := checker.Clean(mod)
			if err != nil || p.CheckInside(c) != nil {
				continue // native-module-outside
			}
			if err := unreadable(p, c); err != nil {
				pass.Reportf(checker.ManifestName, checker.SpanOf(nt.Module), "native module %q cannot be read: %v", mod, err)
				continue
			}
			if p.Exists(c) {
				continue
			}
			d := checker.Diagnostic{
				File: checker.ManifestName, Span: checker.SpanOf(nt.Module),
				Message: fmt.Sprintf("native module %q not found in the plugin directory", mod),
			}
			if ext := path.Ext(c); ext == ".js" || ext == ".mjs" {
				var names []string
				for _, n := range nt.Names {
					if s, ok := checker.Str(n); ok {
						names = append(names, s)
					}
				}
				d.Fixes = []checker.Fix{{
					Title: "Create " + c + " (a module stub)",
					Edits: []checker.Edit{{File: c, Create: true, NewText: moduleStub(names)}},
				}}
			}
			withPathSuggestion(p, &d, nt.Module, []string{".js", ".mjs"})
			pass.Report(d)
		}
	},
}

// unreadable returns why a plugin file that is there cannot be read (not
// a regular file, too large), nil when it reads or does not exist.
func unreadable(p *checker.Plugin, rel string) error {
	_, err := p.ReadFile(rel)
	if errors.Is(err, checker.ErrNotRegular) || errors.Is(err, checker.ErrTooLarge) {
		return err
	}
	return nil
}

// moduleStub is the text of a new native module exporting names.
func moduleStub(names []string) string {
	var b strings.Builder
	b.WriteString("// Native tool module (full-trust lane): compiled ESM, reviewed at install\n")
	b.WriteString("// against the plugin's source-tree hash. Only the names listed in\n")
	b.WriteString("// plugin.json nativeTools[].names register.\n")
	b.WriteString("export const tools = {\n")
	for _, n := range uniqueStrings(names) {
		fmt.Fprintf(&b, "  %s: {\n", jsonString(n))
		fmt.Fprintf(&b, "    description: %s,\n", jsonString("TODO: describe "+n))
		b.WriteString("    inputJsonSchema: { type: \"object\", properties: {} },\n")
		b.WriteString("    async execute(args, ctx) {\n")
		fmt.Fprintf(&b, "      throw new Error(%s);\n", jsonString(n+" is not implemented yet"))
		b.WriteString("    },\n")
		b.WriteString("  },\n")
	}
	b.WriteString("};\n")
	return b.String()
}
