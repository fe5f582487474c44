package analysis

import (
	"sort"
	"sync"
	"unicode/utf8"
)

// Span is a half-open byte range [Start, End) in a file. Everything inside
// analysis speaks byte offsets; lines and UTF-16 columns are computed only
// by File.Position, at the edge.
type Span struct{ Start, End int }

// Position is a 0-based line and a 0-based column counted in UTF-16 code
// units (what LSP uses). Col8 is the same column in bytes.
type Position struct {
	Line int
	Col  int
	Col8 int
}

// File is the text of one file of the plugin, as read from disk or from an
// editor overlay. It is safe for concurrent use (its line index is built
// once, on first use).
type File struct {
	Path string // slash path relative to the plugin directory
	Text []byte
	// lineStarts[i] is the byte offset of line i; built on first use.
	index      sync.Once
	lineStarts []int
	// marks are UTF-16 counts at rune boundaries every markEvery bytes or
	// so (nil for an ASCII file, whose columns are byte counts), so that a
	// column on a long line (a minified manifest) costs O(markEvery), not
	// O(line length).
	marks []mark
}

type mark struct{ off, u16 int }

const markEvery = 256

// NewFile returns a File for path holding text.
func NewFile(path string, text []byte) *File { return &File{Path: path, Text: text} }

func (f *File) lines() []int {
	f.index.Do(func() {
		starts := []int{0}
		ascii := true
		for i, b := range f.Text {
			if b == '\n' {
				starts = append(starts, i+1)
			}
			ascii = ascii && b < utf8.RuneSelf
		}
		if !ascii {
			f.marks = utf16Marks(f.Text)
		}
		f.lineStarts = starts
	})
	return f.lineStarts
}

// utf16Marks walks text rune by rune (as utf16Len does) and records the
// UTF-16 count so far every markEvery bytes.
func utf16Marks(text []byte) []mark {
	marks := make([]mark, 0, len(text)/markEvery+1)
	n, next := 0, 0
	for off := 0; off < len(text); {
		if off >= next {
			marks = append(marks, mark{off, n})
			next = off + markEvery
		}
		r, size := utf8.DecodeRune(text[off:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		off += size
	}
	return marks
}

// u16At returns the UTF-16 count of Text[:off] (off on a rune boundary
// of the walk, or inside a sequence, counted as utf16Len counts it).
func (f *File) u16At(off int) int {
	i := sort.Search(len(f.marks), func(i int) bool { return f.marks[i].off > off }) - 1
	if i < 0 {
		return utf16Len(f.Text[:off])
	}
	m := f.marks[i]
	return m.u16 + utf16Len(f.Text[m.off:off])
}

// Position converts a byte offset to a line and UTF-16 column. Offsets
// outside the file are clamped; an offset inside a UTF-8 sequence counts
// the whole rune before it.
func (f *File) Position(off int) Position {
	if off < 0 {
		off = 0
	}
	if off > len(f.Text) {
		off = len(f.Text)
	}
	ls := f.lines()
	line := sort.Search(len(ls), func(i int) bool { return ls[i] > off }) - 1
	start := ls[line]
	col := off - start
	if f.marks != nil {
		col = f.u16At(off) - f.u16At(start)
	}
	return Position{Line: line, Col: col, Col8: off - start}
}

// Offset converts a line and UTF-16 column back to a byte offset, clamping
// to the line's end (excluding the newline) and to the file.
func (f *File) Offset(line, col16 int) int {
	ls := f.lines()
	if line < 0 {
		return 0
	}
	if line >= len(ls) {
		return len(f.Text)
	}
	end := len(f.Text)
	if line+1 < len(ls) {
		end = ls[line+1] - 1
	}
	off := ls[line]
	for n := 0; off < end && n < col16; {
		r, size := utf8.DecodeRune(f.Text[off:end])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		off += size
	}
	return off
}

// utf16Len counts UTF-16 code units in b; invalid bytes count one each.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}
