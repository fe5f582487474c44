// Package text is the one definition of positions in a text: byte spans,
// and the line index that converts a byte offset to a line and a column
// (UTF-16 code units, as LSP and source maps count, or bytes) and back.
//
// Everything else speaks byte offsets; lines and columns are computed only
// here, at the edges (diagnostics, the language server, source maps, the
// error positions of esbuild and goja). It imports nothing of the project.
//
// A line ends at '\n' only: a CRLF line keeps its '\r' as its last column,
// and a lone '\r' is a column, not a line break.
package text

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
)

// Span is a half-open byte range [Start, End) in a text.
type Span struct{ Start, End int }

// Position is a 0-based line and a 0-based column counted in UTF-16 code
// units (what LSP and source maps use). Col8 is the same column in bytes.
type Position struct {
	Line int
	Col  int
	Col8 int
}

// Index is the line index of one text, built once in O(len(text)). Every
// conversion costs O(log n) plus a scan of at most markEvery bytes, however
// long the line: a minified one-line file is not quadratic.
//
// An Index is immutable once built and safe for concurrent use.
type Index[T string | []byte] struct {
	text T
	// starts[i] is the byte offset of line i.
	starts []int
	// marks are the UTF-16 count of text[:off] at a rune boundary every
	// markEvery bytes or so (a prefix table), nil when the text is ASCII
	// (its columns are byte counts).
	marks []mark
}

type mark struct{ off, u16 int }

const markEvery = 256

// NewIndex builds the line index of text. The index keeps text: it must
// not change while the index is used.
func NewIndex[T string | []byte](text T) *Index[T] {
	lines := 1 // counted first: starts is allocated once, to its size
	switch t := any(text).(type) {
	case string:
		lines += strings.Count(t, "\n")
	case []byte:
		lines += bytes.Count(t, []byte{'\n'})
	}
	ix := &Index[T]{text: text, starts: make([]int, 1, lines)}
	ascii := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			ix.starts = append(ix.starts, i+1)
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	if !ascii {
		ix.marks = make([]mark, 0, len(text)/markEvery+1)
		n, next := 0, 0
		for off := 0; off < len(text); {
			if off >= next {
				ix.marks = append(ix.marks, mark{off, n})
				next = off + markEvery
			}
			if text[off] < utf8.RuneSelf {
				n++
				off++
				continue
			}
			size, units := decode(text, off)
			n += units
			off += size
		}
	}
	return ix
}

// Lines returns the number of lines: one more than the number of '\n'.
func (ix *Index[T]) Lines() int { return len(ix.starts) }

// LineStart returns the byte offset where line starts, clamped: 0 before
// the first line, the text's length after the last.
func (ix *Index[T]) LineStart(line int) int {
	start, _ := ix.bounds(line)
	return start
}

// bounds returns where line starts and ends: at the '\n' that ends it (a
// CRLF line keeps its '\r'), or at the text's end for the last line. A
// line before the first is empty at 0, one after the last empty at the
// text's end.
func (ix *Index[T]) bounds(line int) (start, end int) {
	switch {
	case line < 0:
		return 0, 0
	case line >= len(ix.starts):
		return len(ix.text), len(ix.text)
	case line+1 < len(ix.starts):
		return ix.starts[line], ix.starts[line+1] - 1
	}
	return ix.starts[line], len(ix.text)
}

// Position converts a byte offset to a line and column. Offsets outside
// the text are clamped to it. The UTF-16 column is the UTF-16 length of
// the line's bytes before off, an invalid byte counting one unit (as
// U+FFFD); an offset inside a UTF-8 sequence therefore counts the bytes of
// the sequence before it one unit each.
func (ix *Index[T]) Position(off int) Position {
	off = max(0, min(off, len(ix.text)))
	line := sort.SearchInts(ix.starts, off+1) - 1
	start := ix.starts[line]
	col := off - start
	if ix.marks != nil {
		col = ix.u16At(off) - ix.u16At(start)
	}
	return Position{Line: line, Col: col, Col8: off - start}
}

// Offset converts a line and UTF-16 column to a byte offset. A column past
// the line's end means the line's end (before its '\n'); a line before the
// first means 0, after the last the text's length. A column inside a
// surrogate pair means the offset after that character: Offset never lands
// inside a UTF-8 sequence.
func (ix *Index[T]) Offset(line, col16 int) int {
	start, end := ix.bounds(line)
	if col16 <= 0 || start == end {
		return start
	}
	if ix.marks == nil {
		return min(start+col16, end)
	}
	// Start from the last mark at or before the column (on this line),
	// then walk runes: at most markEvery bytes.
	off, n := start, ix.u16At(start)
	target := n + col16
	if i := sort.Search(len(ix.marks), func(i int) bool { return ix.marks[i].u16 > target }) - 1; i >= 0 && ix.marks[i].off > off {
		if ix.marks[i].off >= end {
			return end
		}
		off, n = ix.marks[i].off, ix.marks[i].u16
	}
	for off < end && n < target {
		size, units := decode(ix.text, off)
		n += units
		off += size
	}
	return min(off, end)
}

// OffsetUTF8 converts a line and byte column to a byte offset. A column
// past the line's end means the line's end (before its '\n'); a column
// inside a UTF-8 sequence means the start of that sequence; lines clamp as
// in Offset.
func (ix *Index[T]) OffsetUTF8(line, col8 int) int {
	start, end := ix.bounds(line)
	off := start + col8
	if off > end || off < start {
		return end
	}
	for off > start && off < len(ix.text) && !utf8.RuneStart(ix.text[off]) {
		off--
	}
	return off
}

// u16At returns the UTF-16 length of text[:off] (see Position for an
// offset inside a UTF-8 sequence). The text is not ASCII (marks != nil).
func (ix *Index[T]) u16At(off int) int {
	i := sort.Search(len(ix.marks), func(i int) bool { return ix.marks[i].off > off }) - 1
	m := ix.marks[max(i, 0)] // marks[0] is at offset 0
	return m.u16 + UTF16Len(ix.text[m.off:off])
}

// UTF16Len returns the number of UTF-16 code units of s, an invalid byte
// counting one (as U+FFFD).
func UTF16Len[T string | []byte](s T) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		size, units := decode(s, i)
		n += units
		i += size
	}
	return n
}

// decode returns the byte length of the rune at s[i] and its number of
// UTF-16 code units (2 above U+FFFF, else 1; an invalid byte is one byte,
// one unit), as utf8.DecodeRune reads it.
func decode[T string | []byte](s T, i int) (size, units int) {
	if s[i] < utf8.RuneSelf {
		return 1, 1
	}
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s[i:min(i+utf8.UTFMax, len(s))])
	r, size := utf8.DecodeRune(buf[:n])
	if r >= 0x10000 {
		return size, 2
	}
	return size, 1
}
