package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// This file is what the server sends shaped by what the client declared
// (initialize): markup in the client's format, and diagnostics carrying
// only the fields the client reads. The position encoding is in
// convert.go.

// diagCaps are the optional parts of a diagnostic the client declared
// (textDocument.publishDiagnostics for push, textDocument.diagnostic for
// pull).
type diagCaps struct {
	related         bool // relatedInformation
	codeDescription bool // codeDescription.href
	unnecessary     bool // tags: Unnecessary
	deprecated      bool // tags: Deprecated
}

// readDiagCaps reads the diagnostic capabilities: those of
// publishDiagnostics, which LSP 3.17 clients declare for diagnostics in
// general, and for a pull client also those of textDocument.diagnostic
// (where LSP 3.18 repeats them).
func readDiagCaps(c *protocol.ClientCapabilities, pull bool) diagCaps {
	var dc diagCaps
	t := c.TextDocument
	if t == nil {
		return dc
	}
	var sets []*protocol.DiagnosticsCapabilities
	if t.PublishDiagnostics != nil {
		sets = append(sets, &t.PublishDiagnostics.DiagnosticsCapabilities)
	}
	if pull && t.Diagnostic != nil {
		sets = append(sets, &t.Diagnostic.DiagnosticsCapabilities)
	}
	for _, d := range sets {
		dc.related = dc.related || d.RelatedInformation != nil && *d.RelatedInformation
		dc.codeDescription = dc.codeDescription || d.CodeDescriptionSupport != nil && *d.CodeDescriptionSupport
		for _, tag := range d.TagSupport.ValueSet {
			switch tag {
			case protocol.DiagnosticTagUnnecessary:
				dc.unnecessary = true
			case protocol.DiagnosticTagDeprecated:
				dc.deprecated = true
			}
		}
	}
	return dc
}

func hasMarkdown(kinds []protocol.MarkupKind) bool {
	for _, k := range kinds {
		if k == protocol.MarkupKindMarkdown {
			return true
		}
	}
	return false
}

// markup renders a doc in the format the client reads.
func markup(d ide.Doc, markdown bool) *protocol.MarkupContent {
	if markdown {
		return &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: d.Markdown()}
	}
	return &protocol.MarkupContent{Kind: protocol.MarkupKindPlainText, Value: d.PlainText()}
}
