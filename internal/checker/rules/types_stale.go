package rules

import (
	"bytes"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
)

// TypesStale notes a generated .plugin/types.d.ts that no longer matches
// what `plugin-lsp types` would write from plugin.json.
var TypesStale = &checker.Rule{
	Code:     "types-stale",
	Severity: checker.Info,
	Title:    "the generated types no longer match plugin.json",
	Doc: "`plugin-lsp types` writes `.plugin/types.d.ts` from plugin.json: the host objects the plugin is granted " +
		"and `Input<\"tool\">` for each function tool (and, for a plugin with native tools, `.plugin/native.d.ts`: " +
		"each native tool's input and its `ctx` as its `requires` narrows it, read from the modules). After a tool is added or renamed, a grant changed or " +
		"plugin-lsp upgraded, the file says something else than the manifest, and `tsc` fails where the pages " +
		"are right (`Input<\"forecast\">`: TS2344) or passes where they are wrong. The language server rewrites " +
		"the file when plugin.json is saved in the editor; `check` and CI say it here. A file that does not " +
		"start with the generator's header is the author's own and is left alone. Without the file, the VS Code " +
		"extension's TypeScript plugin supplies the same declarations (docs/extension.md), and nothing is reported.",
	Lang:   "ts",
	Before: "// plugin.json gained the tool \"forecast\"; .plugin/types.d.ts has no Input<\"forecast\"> yet",
	After:  "// plugin-lsp types . rewrote .plugin/types.d.ts",
	Fix:    "Rewrite `.plugin/types.d.ts` with what `plugin-lsp types DIR` writes (a quick fix in the editor; `check --fix` applies errors' and warnings' fixes only, so run `types`).",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.Manifest == nil || p.Manifest.Root == nil || p.SyntaxError != nil {
			return // written only from a manifest that parses
		}
		read := func(rel string) ([]byte, error) {
			f, err := p.ReadFile(rel)
			if err != nil {
				return nil, err
			}
			return f.Text, nil
		}
		for _, g := range tstypes.OutdatedCached(p, read, pass.Cache) {
			f, _ := p.ReadFile(g.Path)
			from := "plugin.json"
			if g.Path == tstypes.NativePath {
				from = "plugin.json and its native modules"
			}
			first := bytes.IndexByte(f.Text, '\n')
			pass.Report(checker.Diagnostic{
				File:    g.Path,
				Span:    checker.Span{Start: 0, End: first},
				Message: g.Path + " no longer matches " + from + ": run plugin-lsp types on the plugin",
				Fixes: []checker.Fix{{
					Title:     "Regenerate " + g.Path + " from " + from,
					Preferred: true,
					Edits:     []checker.Edit{{File: g.Path, Span: checker.Span{Start: 0, End: len(f.Text)}, NewText: string(g.Want)}},
				}},
			})
		}
	},
}
