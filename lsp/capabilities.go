package lsp

import (
	"regexp"
	"strings"

	"go.lsp.dev/protocol"
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

// markup returns md as the client wants it: Markdown, or plain text for a
// client that did not declare Markdown (the LSP default), so that it
// never shows raw **, ` and ``` marks.
func markup(md string, markdown bool) *protocol.MarkupContent {
	if markdown {
		return &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}
	}
	return &protocol.MarkupContent{Kind: protocol.MarkupKindPlainText, Value: plainText(md)}
}

var (
	mdStrong   = regexp.MustCompile(`\*\*([^*\n]+)\*\*|__([^_\n]+)__`)
	mdCode     = regexp.MustCompile("`+([^`\n]*)`+")
	mdLink     = regexp.MustCompile(`\[([^\]\n]*)\]\(([^)\s]*)\)`)
	mdEscaped  = regexp.MustCompile("\\\\([\\\\`*_{}\\[\\]()#+\\-.!|<>~])")
	mdRule     = regexp.MustCompile(`^\s*(-{3,}|\*{3,}|_{3,})\s*$`)
	mdHeading  = regexp.MustCompile(`^#{1,6}\s+`)
	mdTableSep = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
)

// plainText renders the Markdown the server writes (strong, inline code,
// fenced blocks, links, rules, headings, simple tables, backslash escapes)
// as readable plain text. Code blocks keep their content verbatim.
func plainText(md string) string {
	var out []string
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			out = append(out, line)
			continue
		}
		switch {
		case mdRule.MatchString(line):
			out = append(out, "────────")
			continue
		case mdTableSep.MatchString(line):
			continue
		}
		line = mdHeading.ReplaceAllString(line, "")
		line = mdLink.ReplaceAllString(line, "$1 ($2)")
		line = mdStrong.ReplaceAllString(line, "$1$2")
		line = mdCode.ReplaceAllString(line, "$1")
		line = mdEscaped.ReplaceAllString(line, "$1")
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") && len(t) > 1 {
			cells := strings.Split(t[1:len(t)-1], "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			line = strings.Join(cells, "  ")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
