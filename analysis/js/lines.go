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
}

func newLineIndex(text string) *lineIndex {
	starts := make([]int, 1, 64)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts}
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
	for i := li.starts[line]; i < off; {
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
	off := li.starts[line]
	for n := 0; off < end && n < col16; {
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
