package checker

import (
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Span is a half-open byte range [Start, End) in a file. Everything inside
// analysis speaks byte offsets; lines and UTF-16 columns are computed only
// by File.Position, at the edge. It is the text layer's one Span.
type Span = text.Span

// Position is a 0-based line and a 0-based column counted in UTF-16 code
// units (what LSP uses). Col8 is the same column in bytes.
type Position = text.Position

// File is the text of one file of the plugin, as read from disk or from an
// editor overlay. It is safe for concurrent use (its line index is built
// once, on first use).
type File struct {
	Path string // slash path relative to the plugin directory
	Text []byte
	// index is the line index of Text (internal/text), built on first use:
	// linear in the text, however long its lines.
	once  sync.Once
	index *text.Index[[]byte]
}

// NewFile returns a File for path holding text.
func NewFile(path string, text []byte) *File { return &File{Path: path, Text: text} }

func (f *File) lines() *text.Index[[]byte] {
	f.once.Do(func() { f.index = text.NewIndex(f.Text) })
	return f.index
}

// Position converts a byte offset to a line and UTF-16 column. Offsets
// outside the file are clamped; see text.Index.Position.
func (f *File) Position(off int) Position { return f.lines().Position(off) }

// Offset converts a line and UTF-16 column back to a byte offset, clamping
// to the line's end (excluding the newline) and to the file.
func (f *File) Offset(line, col16 int) int { return f.lines().Offset(line, col16) }

// OffsetUTF8 converts a line and byte column back to a byte offset,
// clamping to the line's end and to the start of a UTF-8 sequence.
func (f *File) OffsetUTF8(line, col8 int) int { return f.lines().OffsetUTF8(line, col8) }
