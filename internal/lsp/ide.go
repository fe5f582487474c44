package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// This file is the glue to package ide, which answers hover, completion
// and definition on plain Go values: here they become protocol types.

// ide returns the snapshot as package ide reads it.
func (sn *snapshot) ide() *ide.Snapshot {
	return &ide.Snapshot{Plugin: sn.plugin, Diags: sn.diags, Runs: ideRuns(sn.runs)}
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

// renderRun is the whole result of a run.
func renderRun(tool string, run *toolRun) ide.Doc { return ide.RenderRun(tool, ideRun(run)) }

// Hover: see ide.Snapshot.Hover.
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	sn, rel := s.snapshotOf(params.TextDocument.URI)
	if sn == nil {
		return nil, nil
	}
	f := sn.file(rel)
	if f == nil {
		return nil, nil
	}
	off := sn.enc.fromPosition(f, params.Position)
	h := sn.ide().Hover(rel, off)
	if h == nil {
		return nil, nil
	}
	r := sn.enc.toRange(f, h.Span)
	return &protocol.Hover{Contents: markup(h.Doc, sn.caps.hoverMarkdown), Range: &r}, nil
}

var completionKinds = map[ide.Kind]protocol.CompletionItemKind{
	ide.HostMethod: protocol.CompletionItemKindFunction,
	ide.Domain:     protocol.CompletionItemKindValue,
	ide.PagePath:   protocol.CompletionItemKindFile,
	ide.ModulePath: protocol.CompletionItemKindModule,
	ide.NativeName: protocol.CompletionItemKindFunction,
}

// Completion: see ide.Snapshot.Complete. A candidate replacing the string
// being typed is a TextEdit (the quotes kept); between array elements it
// is inserted as a new JSON string.
func (s *Server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	sn, rel := s.snapshotOf(params.TextDocument.URI)
	if sn == nil || rel != checker.ManifestName {
		return list, nil
	}
	f := sn.file(rel)
	if f == nil {
		return list, nil
	}
	off := sn.enc.fromPosition(f, params.Position)
	cands := sn.ide().Complete(rel, off)
	for _, c := range cands {
		item := protocol.CompletionItem{Label: c.Label, Kind: completionKinds[c.Kind], Detail: protocol.NewOptional(c.Detail)}
		if len(c.Doc) > 0 {
			item.Documentation = markup(c.Doc, sn.caps.completionDocMD)
		}
		if c.Replace != nil {
			item.TextEdit = &protocol.TextEdit{Range: sn.enc.toRange(f, *c.Replace), NewText: c.Label}
			item.FilterText = protocol.NewOptional(c.Label)
		} else {
			item.InsertText = protocol.NewOptional(`"` + c.Label + `"`)
		}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

// Definition: see ide.Snapshot.Definition.
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	out := protocol.LocationSlice{}
	sn, rel := s.snapshotOf(params.TextDocument.URI)
	if sn == nil || rel != checker.ManifestName {
		return out, nil
	}
	f := sn.file(rel)
	if f == nil {
		return out, nil
	}
	off := sn.enc.fromPosition(f, params.Position)
	targets := sn.ide().Definition(rel, off)
	for _, t := range targets {
		tf := sn.file(t.File)
		if tf == nil {
			continue
		}
		out = append(out, protocol.Location{URI: uriFor(sn.docs, sn.plugin.Abs(t.File)), Range: sn.enc.toRange(tf, t.Span)})
	}
	return out, nil
}

// analysisRuns are the fetches of the last runs, as the rules read them.
func analysisRuns(runs map[string]*toolRun) map[string]checker.ToolRun {
	return ide.AnalysisRuns(ideRuns(runs))
}
