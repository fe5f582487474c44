package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// FuzzManifestRequests feeds arbitrary manifest text to the request
// handlers (hover, completion, definition, symbols, lenses, hints, code
// actions) at every position class: none may panic.
func FuzzManifestRequests(f *testing.F) {
	example, err := os.ReadFile(filepath.Join("..", "..", "testdata", "example", "books", "plugin.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(example), uint16(500))
	f.Add(`{"capabilities": {"host": ["http.fetch", ]}}`, uint16(38))
	f.Add(`{"tools": [{"name": "x", "page": "code/`, uint16(39))
	f.Add(`{"nativeTools": [{"module": "native/telegram.js", "names": ["`, uint16(60))
	f.Add("[\"\xff\", {\"a\": [[[[", uint16(3))
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example", "books"))
	if err != nil {
		f.Fatal(err)
	}
	manifest := filepath.Join(dir, checker.ManifestName)
	f.Fuzz(func(t *testing.T, text string, at uint16) {
		s := New(Options{})
		s.docs[manifest] = &document{uri: string(uri.File(manifest)), path: manifest, version: 1, text: []byte(text)}
		s.ensurePlugin(dir)
		ctx := context.Background()
		f := checker.NewFile("", []byte(text))
		pos := encUTF16.toPosition(f, int(at)%(len(text)+1))
		u := protocol.TextDocumentIdentifier{URI: uri.File(manifest)}
		tdp := protocol.TextDocumentPositionParams{TextDocument: u, Position: pos}
		if _, err := s.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: u}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CodeLens(ctx, &protocol.CodeLensParams{TextDocument: u}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.InlayHint(ctx, &protocol.InlayHintParams{TextDocument: u, Range: protocol.Range{End: protocol.Position{Line: 1 << 20}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: u, Range: protocol.Range{Start: pos, End: pos}}); err != nil {
			t.Fatal(err)
		}
	})
}
