package ide

import (
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// createActions offers to create each missing page and module named in
// the manifest (near the requested range first: all of them are offered,
// since the file list is short).
// A file that a quick fix of the same answer creates (after the
// did-you-mean that uses an existing file) is not offered twice.
func (vw *View) createActions(created map[string]bool) []Action {
	var out []Action
	m := vw.Plugin.Manifest

	for _, t := range m.Tools {
		page, ok := checker.Str(t.Page)
		if !ok || page == "" {
			continue
		}
		rel, exists := vw.Plugin.ResolvePage(page)
		if exists {
			continue
		}
		if _, err := checker.Clean(rel); err != nil || created[rel] {
			continue
		}
		if checker.CheckPluginWrite(vw.Plugin.Dir, rel) != nil {
			continue // the client would follow a symlink out of the plugin
		}
		name, _ := checker.Str(t.Name)
		desc, _ := checker.Str(t.Description)
		out = append(out, Action{
			Title: text.Visible(fmt.Sprintf("Create page %s from a template", rel)),
			Kind:  Source,
			Edits: []checker.Edit{{File: rel, Create: true, NewText: pageTemplate(name, desc, rel)}},
		})
	}
	for _, nt := range m.NativeTools {
		mod, ok := checker.Str(nt.Module)
		if !ok || mod == "" {
			continue
		}
		c, err := checker.Clean(mod)
		if err != nil || created[c] {
			continue
		}
		exists := vw.Plugin.Exists(c)
		if exists || checker.CheckPluginWrite(vw.Plugin.Dir, c) != nil {
			continue
		}
		var names []string
		for _, n := range nt.Names {
			if s, ok := checker.Str(n); ok {
				names = append(names, s)
			}
		}
		out = append(out, Action{
			Title: text.Visible(fmt.Sprintf("Create module %s from a template", c)),
			Kind:  Source,
			Edits: []checker.Edit{{File: c, Create: true, NewText: moduleTemplate(names)}},
		})
	}
	return out
}

// pageTemplate is a new function-tool page.
func pageTemplate(name, desc, rel string) string {
	fn := identifier(name)
	if fn == "" {
		fn = identifier(strings.TrimSuffix(path.Base(rel), path.Ext(rel)))
	}
	if fn == "" {
		fn = "tool"
	}
	if desc == "" {
		desc = "a function tool"
	}
	ts := strings.HasSuffix(rel, ".ts")
	sig := "input"
	if ts {
		sig = "input: Record<string, unknown>"
	}
	return fmt.Sprintf(`// %s: %s.
// Runs in the sandbox: the network only through http.fetch, to the domains
// in capabilities.fetch.
export default async function %s(%s) {
  return { type: "markdown", text: "TODO: " + JSON.stringify(input) };
}
`, fn, desc, fn, sig)
}

// moduleTemplate is a new native tool module exporting names.
func moduleTemplate(names []string) string {
	var b strings.Builder
	b.WriteString("// A native tool module (full-trust lane): compiled ESM.\nexport const tools = {\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %q: {\n    description: \"TODO\",\n    inputJsonSchema: { type: \"object\", properties: {} },\n    async execute(args, ctx) {\n      throw new Error(\"%s: not implemented\");\n    },\n  },\n", n, n)
	}
	b.WriteString("};\n")
	return b.String()
}

// identifier turns a tool name into a JavaScript identifier.
func identifier(s string) string {
	var b strings.Builder
	up := false
	for i, r := range s {
		ok := r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			up = b.Len() > 0
			continue
		}
		if up {
			r = []rune(strings.ToUpper(string(r)))[0]
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
