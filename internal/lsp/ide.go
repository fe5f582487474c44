package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// This file is the glue to package ide, which answers hover, completion
// and definition on plain Go values: here they become protocol types.

// ide returns the view as package ide reads it.
func (vw *view) ide() *ide.View {
	return &ide.View{Plugin: vw.plugin, Diags: vw.diags, Runs: ideRuns(vw.runs)}
}

func ideRuns(runs map[string]*toolRun) map[string]*ide.Run {
	out := make(map[string]*ide.Run, len(runs))
	for name, r := range runs {
		out[name] = ideRun(r)
	}
	return out
}

func ideRun(r *toolRun) *ide.Run {
	if r == nil {
		return nil
	}
	return &ide.Run{Record: r.record, Err: r.err, Input: r.input, Basis: r.basis}
}

// Hover: see ide.View.Hover.
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	vw, rel := s.viewOf(params.TextDocument.URI)
	if vw == nil {
		return nil, nil
	}
	f := vw.file(rel)
	if f == nil {
		return nil, nil
	}
	off := vw.enc.fromPosition(f, params.Position)
	h := vw.ide().Hover(rel, off)
	if h == nil {
		return nil, nil
	}
	r := vw.enc.toRange(f, h.Span)
	return &protocol.Hover{Contents: markup(h.Doc, vw.caps.hoverMarkdown), Range: &r}, nil
}

var completionKinds = map[ide.Kind]protocol.CompletionItemKind{
	ide.HostMethod: protocol.CompletionItemKindFunction,
	ide.Domain:     protocol.CompletionItemKindValue,
	ide.PagePath:   protocol.CompletionItemKindFile,
	ide.ModulePath: protocol.CompletionItemKindModule,
	ide.NativeName: protocol.CompletionItemKindFunction,
}

// Completion: see ide.View.Complete. A candidate replacing the string
// being typed is a TextEdit (the quotes kept); between array elements it
// is inserted as a new JSON string.
func (s *Server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	vw, rel := s.viewOf(params.TextDocument.URI)
	if vw == nil || rel != checker.ManifestName {
		return list, nil
	}
	f := vw.file(rel)
	if f == nil {
		return list, nil
	}
	off := vw.enc.fromPosition(f, params.Position)
	cands := vw.ide().Complete(rel, off)
	for _, c := range cands {
		item := protocol.CompletionItem{Label: c.Label, Kind: completionKinds[c.Kind], Detail: protocol.NewOptional(c.Detail)}
		if len(c.Doc) > 0 {
			item.Documentation = markup(c.Doc, vw.caps.completionDocMD)
		}
		if c.Replace != nil {
			item.TextEdit = &protocol.TextEdit{Range: vw.enc.toRange(f, *c.Replace), NewText: c.Label}
			item.FilterText = protocol.NewOptional(c.Label)
		} else {
			item.InsertText = protocol.NewOptional(`"` + c.Label + `"`)
		}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

// Definition: see ide.View.Definition.
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	out := protocol.LocationSlice{}
	vw, rel := s.viewOf(params.TextDocument.URI)
	if vw == nil || rel != checker.ManifestName {
		return out, nil
	}
	f := vw.file(rel)
	if f == nil {
		return out, nil
	}
	off := vw.enc.fromPosition(f, params.Position)
	targets := vw.ide().Definition(rel, off)
	for _, t := range targets {
		tf := vw.file(t.File)
		if tf == nil {
			continue
		}
		out = append(out, protocol.Location{URI: uriFor(vw.docs, vw.plugin.Abs(t.File)), Range: vw.enc.toRange(tf, t.Span)})
	}
	return out, nil
}

// analysisRuns are the fetches of the last runs, as the rules read them.
func analysisRuns(runs map[string]*toolRun) map[string]checker.ToolRun {
	return ide.AnalysisRuns(ideRuns(runs))
}
