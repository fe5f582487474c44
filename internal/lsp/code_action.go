package lsp

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// CodeAction offers, for the requested range: every fix of every
// diagnostic there (quick fixes, also when the edit is in another file),
// "add all missing capabilities" for a page, and source actions that
// create a missing page or module from a template.
func (s *Server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	path := pathOf(params.TextDocument.URI)
	s.mu.Lock()
	ps := s.pluginFor(path)
	docChanges := s.caps.documentChanges
	s.mu.Unlock()
	out := []protocol.CommandOrCodeAction{}
	if ps == nil {
		return out, nil
	}
	vw := s.check(ps)
	rel, ok := relTo(ps.dir, path)
	if !ok || vw.plugin == nil {
		return out, nil
	}
	f := vw.file(rel)
	if f == nil {
		return out, nil
	}
	want := vw.enc.fromRange(f, params.Range)
	allow := func(k protocol.CodeActionKind) bool {
		if len(params.Context.Only) == 0 {
			return true
		}
		for _, o := range params.Context.Only {
			if k == o || strings.HasPrefix(string(k), string(o)+".") {
				return true
			}
		}
		return false
	}

	created := map[string]bool{}
	if allow(protocol.CodeActionKindQuickFix) {
		var capDiags []protocol.Diagnostic
		for i := range vw.diags {
			d := &vw.diags[i]
			if d.File != rel || !overlaps(d.Span, want) {
				continue
			}
			pd := s.toDiagnostic(vw, d)
			if ide.IsCapabilityCode(d.Code) && len(d.Fixes) > 0 {
				capDiags = append(capDiags, pd)
			}
			if snapshotCodes[d.Code] {
				out = append(out, pinAction(uri.File(filepath.Join(ps.dir, checker.ManifestName)), pd))
				continue // the rule's fix is this command (it shows the review card first)
			}
			for j, fx := range d.Fixes {
				for _, e := range fx.Edits {
					if e.Create {
						created[e.File] = true
					}
				}
				kind := protocol.CodeActionKindQuickFix
				ca := &protocol.CodeAction{
					Title:       text.Visible(fx.Title), // titles quote the plugin: its controls shown
					Kind:        &kind,
					Diagnostics: []protocol.Diagnostic{pd},
					Edit:        vw.workspaceEdit(fx.Edits, docChanges),
				}
				if d.PreferredFix() == &d.Fixes[j] {
					ca.IsPreferred = new(true)
				}
				out = append(out, ca)
			}
		}
		// All missing capabilities of this page at once: only worth it
		// when the page needs more than one.
		if rel != checker.ManifestName {
			if n, edit := s.fixAllCapabilities(vw, ps.dir, rel); n > 1 {
				kind := protocol.CodeActionKindQuickFix
				out = append(out, &protocol.CodeAction{
					Title:       text.Visible(fmt.Sprintf("Add all %d missing capabilities of %s to plugin.json", n, rel)),
					Kind:        &kind,
					Diagnostics: capDiags,
					Edit:        vw.workspaceEdit([]checker.Edit{edit}, docChanges),
				})
			}
		}
	}
	if allow(protocol.CodeActionKindQuickFix) {
		out = append(out, s.testActions(vw, rel, want)...)
	}
	if explicitly(params.Context.Only, protocol.CodeActionKindSourceFixAll) {
		if ca := s.fixAllAction(vw, ps, docChanges); ca != nil {
			out = append(out, ca)
		}
	}
	if allow(protocol.CodeActionKindSource) && rel == checker.ManifestName {
		out = append(out, s.createActions(vw, want, docChanges, created)...)
	}
	if allow(protocol.CodeActionKindSource) {
		out = append(out, s.typesActions(vw, rel)...)
	}
	return out, nil
}

func overlaps(a, want checker.Span) bool {
	if want.Start == want.End {
		return a.Start <= want.Start && want.Start <= a.End
	}
	return a.Start < want.End && want.Start < a.End || a.Start == a.End && want.Start <= a.Start && a.Start <= want.End
}

// fixAllCapabilities is ide's AddAllCapabilities of page rel, checking
// the plugin again (with the editor's buffers and the last runs) when
// its fixes conflict.
func (s *Server) fixAllCapabilities(vw *view, dir, rel string) (int, checker.Edit) {
	files := map[string][]byte{}
	for p, d := range vw.docs {
		files[p] = d.text
	}
	manifestPath := absIn(dir, checker.ManifestName)
	s.mu.Lock()
	cfg := s.analysisConfig()
	cache := checker.NewCache()
	if ps := s.plugins[dir]; ps != nil {
		cache = ps.cache
	}
	s.mu.Unlock()
	cfg.Runs = analysisRuns(vw.runs)
	recheck := func(manifest []byte) ([]checker.Diagnostic, error) {
		files[manifestPath] = manifest
		p, err := checker.Load(newOverlayFS(files), dir)
		if err != nil {
			return nil, err
		}
		return checker.Run(p, s.rules(), cfg, cache), nil
	}
	is := vw.ide()
	n, text := is.AddAllCapabilities(rel, recheck)
	return n, is.AddAllEdit(text)
}

// createActions offers to create each missing page and module named in
// the manifest (near the requested range first: all of them are offered,
// since the file list is short).
// A file that a quick fix of the same answer creates (after the
// did-you-mean that uses an existing file) is not offered twice.
func (s *Server) createActions(vw *view, want checker.Span, docChanges bool, created map[string]bool) []protocol.CommandOrCodeAction {
	var out []protocol.CommandOrCodeAction
	m := vw.plugin.Manifest
	kind := protocol.CodeActionKindSource

	for _, t := range m.Tools {
		page, ok := checker.Str(t.Page)
		if !ok || page == "" {
			continue
		}
		rel, exists := vw.plugin.ResolvePage(page)
		if exists {
			continue
		}
		if _, err := checker.Clean(rel); err != nil || created[rel] {
			continue
		}
		if checker.CheckPluginWrite(vw.plugin.Dir, rel) != nil {
			continue // the client would follow a symlink out of the plugin
		}
		name, _ := checker.Str(t.Name)
		desc, _ := checker.Str(t.Description)
		out = append(out, &protocol.CodeAction{
			Title: text.Visible(fmt.Sprintf("Create page %s from a template", rel)),
			Kind:  &kind,
			Edit:  vw.workspaceEdit([]checker.Edit{{File: rel, Create: true, NewText: pageTemplate(name, desc, rel)}}, docChanges),
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
		exists := vw.plugin.Exists(c)
		if exists || checker.CheckPluginWrite(vw.plugin.Dir, c) != nil {
			continue
		}
		var names []string
		for _, n := range nt.Names {
			if s, ok := checker.Str(n); ok {
				names = append(names, s)
			}
		}
		out = append(out, &protocol.CodeAction{
			Title: text.Visible(fmt.Sprintf("Create module %s from a template", c)),
			Kind:  &kind,
			Edit:  vw.workspaceEdit([]checker.Edit{{File: c, Create: true, NewText: moduleTemplate(names)}}, docChanges),
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
