package text

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// refPosition is the definition Position must meet, computed the slow way
// with the standard library: the line is the number of '\n' before off,
// the column the UTF-16 encoding of the line's bytes before off ([]rune
// turns every invalid byte into one U+FFFD).
func refPosition(text string, off int) Position {
	off = max(0, min(off, len(text)))
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return Position{
		Line: strings.Count(text[:off], "\n"),
		Col:  len(utf16.Encode([]rune(text[start:off]))),
		Col8: off - start,
	}
}

// refOffset walks the runes of the line from its start until col16 units
// are reached (or the line's end, before '\n').
func refOffset(text string, line, col16 int) int {
	if line < 0 {
		return 0
	}
	start := 0
	for range line {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return len(text)
		}
		start += i + 1
	}
	end := len(text)
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		end = start + i
	}
	n := 0
	for i, r := range text[start:end] {
		if n >= col16 {
			return start + i
		}
		n += utf16.RuneLen(r) // an invalid byte is U+FFFD: one unit
	}
	return end
}

func TestPosition(t *testing.T) {
	// é is 2 bytes / 1 unit; 😀 is 4 bytes / 2 units; 中 is 3 bytes / 1 unit.
	const s = "aé😀中x\nsecond\r\n😀😀z\rw\n"
	for _, tc := range []struct {
		off  int
		want Position // line, UTF-16 column, byte column
	}{
		{0, Position{0, 0, 0}},
		{1, Position{0, 1, 1}},   // before é
		{3, Position{0, 2, 3}},   // before 😀
		{7, Position{0, 4, 7}},   // before 中
		{10, Position{0, 5, 10}}, // before x
		{11, Position{0, 6, 11}}, // the newline
		{12, Position{1, 0, 0}},  // "second"
		{18, Position{1, 6, 6}},  // the \r of CRLF counts as a column
		{19, Position{1, 7, 7}},  // the \n of CRLF
		{20, Position{2, 0, 0}},
		{24, Position{2, 2, 4}},  // between the two emoji
		{28, Position{2, 4, 8}},  // z
		{29, Position{2, 5, 9}},  // a lone \r is a column, not a line break
		{30, Position{2, 6, 10}}, // w
		{32, Position{3, 0, 0}},  // end of text, after the last newline
		{99, Position{3, 0, 0}},  // past the end: clamped
		{-5, Position{0, 0, 0}},  // before the start: clamped
		{5, Position{0, 4, 5}},   // inside 😀 (2 of its 4 bytes): one unit per byte before
	} {
		for name, p := range map[string]Position{
			"string": NewIndex(s).Position(tc.off),
			"bytes":  NewIndex([]byte(s)).Position(tc.off),
		} {
			if p != tc.want {
				t.Errorf("%s: Position(%d) = %+v, want %+v", name, tc.off, p, tc.want)
			}
		}
	}
}

func TestOffset(t *testing.T) {
	const s = "aé😀中x\nsecond\r\n😀😀z\rw\n"
	ix := NewIndex(s)
	for _, tc := range []struct{ line, col16, want int }{
		{0, 0, 0},
		{0, 2, 3},
		{0, 3, 7},  // inside the surrogate pair of 😀: after it
		{0, 4, 7},  // after 😀
		{0, 6, 11}, // the end of the line
		{0, 50, 11},
		{0, -3, 0},
		{1, 6, 18},   // before the \r of a CRLF line
		{1, 99, 19},  // past the end of a CRLF line: before its \n, after its \r
		{2, 5, 29},   // the lone \r
		{2, 6, 30},   // w, on the same line as the lone \r
		{3, 0, 32},   // the empty last line
		{3, 9, 32},   // past its end
		{99, 0, 32},  // past the last line
		{-1, 5, 0},   // before the first
		{2, 1, 24},   // inside the first 😀 of line 2: after it
		{2, 2, 24},   // between the two emoji
		{2, 200, 31}, // the line's end
	} {
		if got := ix.Offset(tc.line, tc.col16); got != tc.want {
			t.Errorf("Offset(%d, %d) = %d, want %d", tc.line, tc.col16, got, tc.want)
		}
		if got := NewIndex([]byte(s)).Offset(tc.line, tc.col16); got != tc.want {
			t.Errorf("bytes: Offset(%d, %d) = %d, want %d", tc.line, tc.col16, got, tc.want)
		}
	}
}

func TestOffsetUTF8(t *testing.T) {
	const s = "aé😀\r\nb\n"
	ix := NewIndex(s)
	for _, tc := range []struct{ line, col8, want int }{
		{0, 0, 0},
		{0, 1, 1},
		{0, 2, 1}, // inside é: its start
		{0, 3, 3},
		{0, 5, 3}, // inside 😀: its start
		{0, 7, 7}, // the \r
		{0, 8, 8}, // before \n: the line's end
		{0, 9, 8}, // past it
		{0, -1, 8},
		{1, 0, 9},
		{1, 1, 10},
		{2, 0, 11},
		{2, 4, 11},
		{3, 0, 11},
		{-1, 0, 0},
	} {
		if got := ix.OffsetUTF8(tc.line, tc.col8); got != tc.want {
			t.Errorf("OffsetUTF8(%d, %d) = %d, want %d", tc.line, tc.col8, got, tc.want)
		}
	}
}

func TestEmptyText(t *testing.T) {
	for _, ix := range []*Index[string]{NewIndex(""), NewIndex(string([]byte(nil)))} {
		if p := ix.Position(0); p != (Position{}) {
			t.Errorf("Position(0) = %+v", p)
		}
		if ix.Offset(0, 5) != 0 || ix.OffsetUTF8(0, 5) != 0 || ix.Offset(3, 0) != 0 {
			t.Error("an offset in an empty text is not 0")
		}
		if ix.Lines() != 1 || ix.LineStart(0) != 0 || ix.LineStart(1) != 0 {
			t.Errorf("lines %d", ix.Lines())
		}
	}
	if p := NewIndex([]byte(nil)).Position(7); p != (Position{}) {
		t.Errorf("nil bytes: Position(7) = %+v", p)
	}
}

func TestInvalidUTF8(t *testing.T) {
	// A lone continuation byte, a truncated 3-byte sequence before '\n',
	// an encoded surrogate (invalid in UTF-8), an overlong '/': each
	// invalid byte is one unit (U+FFFD), and '\n' always ends a line.
	s := "\x80a\xe4\xb8\nb\xed\xa0\x80c\xc0\xafd😀"
	ix := NewIndex(s)
	for off := 0; off <= len(s); off++ {
		if got, want := ix.Position(off), refPosition(s, off); got != want {
			t.Errorf("Position(%d) = %+v, want %+v", off, got, want)
		}
	}
	if p := ix.Position(5); p.Line != 1 || p.Col != 0 {
		t.Errorf("the truncated sequence swallowed the newline: %+v", p)
	}
	if got := UTF16Len(s); got != len(utf16.Encode([]rune(s))) {
		t.Errorf("UTF16Len = %d", got)
	}
}

// Every rune boundary round-trips through both columns, on short lines
// and on a long one that crosses many marks.
func TestRoundTrip(t *testing.T) {
	long := strings.Repeat("ab😀é中\r", 300) + "\n" + strings.Repeat("x", 700) + "é"
	for _, s := range []string{
		"{\r\n  \"name\": \"😀é\",\n\t\"v\": \"中文\"\n}",
		long,
		"\n\n\r\n",
	} {
		ix := NewIndex(s)
		for off := 0; off <= len(s); off++ {
			if off < len(s) && !utf8.RuneStart(s[off]) {
				continue
			}
			p := ix.Position(off)
			if want := refPosition(s, off); p != want {
				t.Fatalf("Position(%d) = %+v, want %+v", off, p, want)
			}
			if back := ix.Offset(p.Line, p.Col); back != off {
				t.Fatalf("Offset(Position(%d) = %+v) = %d", off, p, back)
			}
			if back := ix.OffsetUTF8(p.Line, p.Col8); back != off {
				t.Fatalf("OffsetUTF8(Position(%d) = %+v) = %d", off, p, back)
			}
		}
	}
}

// FuzzIndex: the index (marks, binary searches, the ASCII fast path)
// gives what the slow definitions give, for any bytes, short or repeated
// into lines longer than many marks.
func FuzzIndex(f *testing.F) {
	f.Add([]byte("aé😀中x\n"), uint16(300), 7, 3)
	f.Add([]byte("\xf0\x9f😀\xe4"), uint16(1000), 0, 2001)
	f.Add([]byte("a\r\nb\rc"), uint16(2), 1, 1)
	f.Add([]byte("plain ascii"), uint16(500), 0, 4000)
	f.Add([]byte{}, uint16(0), 0, 0)
	f.Fuzz(func(t *testing.T, unit []byte, reps uint16, line, col int) {
		s := string(bytes.Repeat(unit, int(reps)%2000+1))
		ixs, ixb := NewIndex(s), NewIndex([]byte(s))
		step := max(1, len(s)/300)
		for off := -1; off <= len(s)+1; off += step {
			want := refPosition(s, off)
			if got := ixs.Position(off); got != want {
				t.Fatalf("Position(%d) = %+v, want %+v", off, got, want)
			}
			if got := ixb.Position(off); got != want {
				t.Fatalf("bytes: Position(%d) = %+v, want %+v", off, got, want)
			}
			if off >= 0 && off <= len(s) && (off == len(s) || utf8.RuneStart(s[off])) && utf8.ValidString(s) {
				if back := ixs.Offset(want.Line, want.Col); back != off {
					t.Fatalf("Offset(%+v) = %d, want %d", want, back, off)
				}
			}
		}
		lines := strings.Count(s, "\n") + 1
		line = line % (lines + 2)
		for _, c := range []int{col, col % 64, col % 5000, -col} {
			got, want := ixs.Offset(line, c), refOffset(s, line, c)
			if got != want {
				t.Fatalf("Offset(%d, %d) = %d, want %d", line, c, got, want)
			}
			if gotb := ixb.Offset(line, c); gotb != got {
				t.Fatalf("bytes: Offset(%d, %d) = %d, string %d", line, c, gotb, got)
			}
			off := ixs.OffsetUTF8(line, c)
			if off < 0 || off > len(s) || (off < len(s) && !utf8.RuneStart(s[off]) && off > ixs.LineStart(line)) {
				t.Fatalf("OffsetUTF8(%d, %d) = %d: outside the text or inside a rune", line, c, off)
			}
		}
	})
}

// oneLine is a minified file of n bytes on one line: mostly ASCII with a
// non-ASCII character every ~100 bytes, so that columns need UTF-16
// counting.
func oneLine(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"k%d":"value é %d","x":[1,2,3],"e":"😀"},`, i, i*7)
	}
	return b.String()[:n]
}

// BenchmarkOneLine: a 1 MB one-line file, indexed once, then a position
// asked every 64 bytes (16,384 conversions) and back: linear in the file,
// not quadratic (the 256 KB run costs a quarter of the 1 MB one).
func BenchmarkOneLine(b *testing.B) {
	for _, size := range []int{256 << 10, 1 << 20} {
		s := oneLine(size)
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				ix := NewIndex(s)
				for off := 0; off < len(s); off += 64 {
					p := ix.Position(off)
					ix.Offset(p.Line, p.Col)
				}
			}
		})
	}
}
