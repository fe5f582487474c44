package lsp

import (
	"path/filepath"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// This file is the edge: byte spans and plugin-relative paths in, UTF-16
// ranges and URIs out (and back).

// pathOf returns the cleaned OS path of a file URI, or "" for other schemes.
func pathOf(u uri.URI) string {
	if u.Scheme() != "file" {
		return ""
	}
	p := u.FsPath()
	if p == "" {
		return ""
	}
	// A copy: the decoder's strings share the memory of the whole message
	// they came in (go.lsp.dev/protocol decodes without copying), so a
	// path kept from a didChange would keep its text alive with it.
	return strings.Clone(filepath.Clean(p))
}

// uriFor returns the URI of an OS path: the one the client used when the
// document is open (clients compare URIs as strings), else a file URI.
// Callers hold s.mu or pass docs from a view.
func uriFor(docs map[string]*document, path string) uri.URI {
	if d, ok := docs[path]; ok {
		return uri.URI(d.uri)
	}
	return uri.File(path)
}

// encoding is the position encoding negotiated with the client
// (initialize: general.positionEncodings): what an LSP "character" counts.
type encoding int

const (
	encUTF16 encoding = iota // the LSP default, and what every client supports
	encUTF8                  // bytes; chosen when the client offers it
)

// kind is the encoding's name in the initialize result.
func (e encoding) kind() protocol.PositionEncodingKind {
	if e == encUTF8 {
		return protocol.PositionEncodingKindUTF8
	}
	return protocol.PositionEncodingKindUTF16
}

// negotiateEncoding picks utf-8 when the client offers it (no conversion
// at all), else utf-16, which every client must support.
func negotiateEncoding(offered []protocol.PositionEncodingKind) encoding {
	for _, k := range offered {
		if k == protocol.PositionEncodingKindUTF8 {
			return encUTF8
		}
	}
	return encUTF16
}

// toPosition converts a byte offset in f to an LSP position.
func (e encoding) toPosition(f *checker.File, off int) protocol.Position {
	p := f.Position(off)
	col := p.Col
	if e == encUTF8 {
		col = p.Col8
	}
	return protocol.Position{Line: uint32(p.Line), Character: uint32(col)}
}

// toRange converts a byte span in f to an LSP range. A nil file (one that
// could not be read) yields the empty range at the start.
func (e encoding) toRange(f *checker.File, sp checker.Span) protocol.Range {
	if f == nil {
		return protocol.Range{}
	}
	if sp.End < sp.Start {
		sp.End = sp.Start
	}
	return protocol.Range{Start: e.toPosition(f, sp.Start), End: e.toPosition(f, sp.End)}
}

// fromPosition converts an LSP position in f to a byte offset. A column
// past the end of its line means the line's end (as in the spec); a utf-8
// column inside a character means the start of that character.
func (e encoding) fromPosition(f *checker.File, p protocol.Position) int {
	if e == encUTF16 {
		return f.Offset(int(p.Line), int(p.Character))
	}
	return f.OffsetUTF8(int(p.Line), int(p.Character))
}

// fromRange converts an LSP range in f to a byte span.
func (e encoding) fromRange(f *checker.File, r protocol.Range) checker.Span {
	s, en := e.fromPosition(f, r.Start), e.fromPosition(f, r.End)
	if en < s {
		en = s
	}
	return checker.Span{Start: s, End: en}
}

// file returns the plugin's file at rel as the check saw it, or nil
// (checker.Plugin is immutable: concurrent requests share it).
func (vw *view) file(rel string) *checker.File {
	if vw.plugin == nil {
		return nil
	}
	f, err := vw.plugin.ReadFile(rel)
	if err != nil {
		return nil
	}
	return f
}

// severity maps analysis severities (the same numbers as LSP).
func severity(s checker.Severity) protocol.DiagnosticSeverity {
	switch s {
	case checker.Error:
		return protocol.DiagnosticSeverityError
	case checker.Warning:
		return protocol.DiagnosticSeverityWarning
	case checker.Info:
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityHint
}

// workspaceEdit turns analysis edits into an LSP workspace edit. Files to
// create become CreateFile operations followed by the insertion of their
// content; both require documentChanges, which is also used whenever the
// client supports it, with the open documents' versions.
func (vw *view) workspaceEdit(edits []checker.Edit, useDocChanges bool) *protocol.WorkspaceEdit {
	type group struct {
		path   string
		create bool
		edits  []checker.Edit
	}
	var order []string
	groups := map[string]*group{}
	for _, e := range edits {
		g, ok := groups[e.File]
		if !ok {
			g = &group{path: vw.plugin.Abs(e.File)}
			groups[e.File] = g
			order = append(order, e.File)
		}
		if e.Create {
			g.create = true
		}
		g.edits = append(g.edits, e)
	}
	for _, g := range groups {
		if g.create {
			useDocChanges = true
		}
	}
	we := &protocol.WorkspaceEdit{}
	if !useDocChanges {
		we.Changes = map[uri.URI][]protocol.TextEdit{}
	}
	for _, rel := range order {
		g := groups[rel]
		u := uriFor(vw.docs, g.path)
		var f *checker.File
		if !g.create {
			f = vw.file(rel)
			if f == nil {
				f = checker.NewFile(rel, nil)
			}
		}
		// Apply from the end so that clients applying sequentially agree.
		es := append([]checker.Edit(nil), g.edits...)
		sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
		tes := make([]protocol.TextEdit, 0, len(es))
		for _, e := range es {
			r := protocol.Range{}
			if f != nil {
				r = vw.enc.toRange(f, e.Span)
			}
			tes = append(tes, protocol.TextEdit{Range: r, NewText: e.NewText})
		}
		if !useDocChanges {
			we.Changes[u] = tes
			continue
		}
		if g.create {
			we.DocumentChanges = append(we.DocumentChanges, &protocol.CreateFile{
				Kind: "create", URI: u,
				Options: &protocol.CreateFileOptions{IgnoreIfExists: new(true)},
			})
		}
		elems := make([]protocol.TextDocumentEditElement, 0, len(tes))
		for i := range tes {
			elems = append(elems, &tes[i])
		}
		id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}
		if d, ok := vw.docs[g.path]; ok && !g.create {
			v := d.version
			id.Version = &v
		}
		we.DocumentChanges = append(we.DocumentChanges, &protocol.TextDocumentEdit{TextDocument: id, Edits: elems})
	}
	return we
}
