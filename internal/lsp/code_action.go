package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// CodeAction: see ide.View.CodeActions. The client's "only" filter is
// applied by kind; fix-all (it re-checks the plugin once per fix) only
// when asked for by its name.
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
	req := ide.ActionRequest{
		File:    rel,
		Span:    want,
		Allow:   ide.AllowKinds(params.Context.Only),
		Recheck: s.recheck(vw, ps.dir),
	}
	if ide.Explicitly(params.Context.Only, ide.SourceFixAll) {
		req.FixAll = s.fixAllOptions(vw, ps)
	}
	if ide.IsTestFile(rel) {
		req.Tests = vw.testCases(rel)
	}
	for _, a := range vw.ide().CodeActions(req) {
		out = append(out, s.toCodeAction(vw, a, docChanges))
	}
	return out, nil
}

// toCodeAction converts an action of package ide.
func (s *Server) toCodeAction(vw *view, a ide.Action, docChanges bool) *protocol.CodeAction {
	kind := protocol.CodeActionKind(a.Kind)
	ca := &protocol.CodeAction{Title: a.Title, Kind: &kind}
	for _, d := range a.Diagnostics {
		ca.Diagnostics = append(ca.Diagnostics, s.toDiagnostic(vw, d))
	}
	if a.Preferred {
		ca.IsPreferred = new(true)
	}
	if a.Command != nil {
		ca.Command = vw.toCommand(*a.Command)
	} else {
		ca.Edit = vw.workspaceEdit(a.Edits, docChanges)
	}
	return ca
}

// toCommand converts a command of package ide: its file becomes the
// file's URI (as the client spelled it when the file is open).
func (vw *view) toCommand(c ide.Command) protocol.Command {
	var arg any
	fileURI := ""
	if c.File != "" {
		fileURI = string(uriFor(vw.docs, vw.plugin.Abs(c.File)))
	}
	switch c.Name {
	case CommandRunTool:
		arg = runToolArgs{URI: fileURI, Tool: c.Tool}
	case CommandPin:
		arg = pinArgs{URI: string(uri.File(vw.plugin.Abs(c.File)))}
	default:
		a := testArgs{URI: fileURI, Name: c.Case}
		if c.Dir {
			a.Dir = vw.plugin.Dir
		}
		arg = a
	}
	b, _ := json.Marshal(arg)
	return protocol.Command{Title: c.Title, Command: c.Name, Arguments: []protocol.LSPAny{b}}
}

// recheck checks the plugin of vw again with plugin.json replaced (the
// editor's buffers and the last runs kept), for ide's add-all.
func (s *Server) recheck(vw *view, dir string) ide.Recheck {
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
	return func(manifest []byte) ([]checker.Diagnostic, error) {
		files[manifestPath] = manifest
		p, err := checker.Load(newOverlayFS(files), dir)
		if err != nil {
			return nil, err
		}
		return checker.Run(p, s.rules(), cfg, cache), nil
	}
}
