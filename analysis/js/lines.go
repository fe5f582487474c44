package js

import (
	"sort"
	"unicode/utf8"
)

// lineIndex converts between byte offsets and (line, UTF-16 column)
// pairs, both 0-based, for one text.
type lineIndex struct {
	text   string
	starts []int
	// marks are rune boundaries every markEvery bytes or so of a long
	// line, with their UTF-16 column, so that a conversion decodes at
	// most markEvery bytes: esbuild's minified output is one line of the
	// whole bundle, and decoding from the line start made a page's
	// analysis quadratic in its size (a 2 MB page took minutes).
	marks []lineMark
}

// lineMark is a rune boundary of a long line and its UTF-16 column.
type lineMark struct{ off, line, col16 int }

const markEvery = 256

func newLineIndex(text string) *lineIndex {
	starts := make([]int, 1, 64)
	var marks []lineMark
	line, col16, last := 0, 0, 0
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\n' {
			i++
			starts = append(starts, i)
			line, col16, last = line+1, 0, i
			continue
		}
		if i-last >= markEvery {
			marks = append(marks, lineMark{i, line, col16})
			last = i
		}
		if c < utf8.RuneSelf {
			i++
			col16++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r >= 0x10000 {
			col16 += 2
		} else {
			col16++
		}
		i += size
	}
	return &lineIndex{text: text, starts: starts, marks: marks}
}

// pos returns the 0-based line and UTF-16 column of a byte offset.
func (li *lineIndex) pos(off int) (line, col16 int) {
	if off < 0 {
		off = 0
	}
	if off > len(li.text) {
		off = len(li.text)
	}
	line = sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	i := li.starts[line]
	if k := sort.Search(len(li.marks), func(k int) bool { return li.marks[k].off > off }) - 1; k >= 0 && li.marks[k].line == line {
		i, col16 = li.marks[k].off, li.marks[k].col16
	}
	for i < off {
		r, size := utf8.DecodeRuneInString(li.text[i:])
		if r >= 0x10000 {
			col16 += 2
		} else {
			col16++
		}
		i += size
	}
	return line, col16
}

// offset returns the byte offset of a 0-based line and UTF-16 column,
// clamped to the line and the text.
func (li *lineIndex) offset(line, col16 int) int {
	if line < 0 {
		return 0
	}
	if line >= len(li.starts) {
		return len(li.text)
	}
	end := len(li.text)
	if line+1 < len(li.starts) {
		end = li.starts[line+1] - 1
	}
	off, n := li.starts[line], 0
	if k := sort.Search(len(li.marks), func(k int) bool {
		m := li.marks[k]
		return m.line > line || m.line == line && m.col16 > col16
	}) - 1; k >= 0 && li.marks[k].line == line {
		off, n = li.marks[k].off, li.marks[k].col16
	}
	for off < end && n < col16 {
		r, size := utf8.DecodeRuneInString(li.text[off:end])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		off += size
	}
	return off
}

// lineCol8 returns the byte offset of a 0-based line and a 0-based byte
// column, clamped.
func (li *lineIndex) lineCol8(line, col8 int) int {
	if line < 0 {
		return 0
	}
	if line >= len(li.starts) {
		return len(li.text)
	}
	off := li.starts[line] + col8
	if off > len(li.text) {
		off = len(li.text)
	}
	return off
}
