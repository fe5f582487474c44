package checker

import (
	"bytes"
	"fmt"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	textpkg "github.com/plugin-lsp/plugin-lsp/internal/text"
)

func TestPositionUTF16(t *testing.T) {
	// é is 2 bytes / 1 unit; 😀 is 4 bytes / 2 units; 中 is 3 bytes / 1 unit.
	f := NewFile("plugin.json", []byte("aé😀中x\nsecond\r\n😀😀z\n"))
	for _, tc := range []struct {
		off               int
		line, col16, colB int
	}{
		{0, 0, 0, 0},
		{1, 0, 1, 1},   // before é
		{3, 0, 2, 3},   // before 😀
		{7, 0, 4, 7},   // before 中
		{10, 0, 5, 10}, // before x
		{11, 0, 6, 11}, // the newline
		{12, 1, 0, 0},  // "second"
		{18, 1, 6, 6},  // the \r of CRLF counts as a column
		{20, 2, 0, 0},
		{24, 2, 2, 4}, // between the two emoji
		{28, 2, 4, 8}, // z
		{30, 3, 0, 0}, // end of file, after the last newline
		{99, 3, 0, 0}, // clamped
		{-5, 0, 0, 0}, // clamped
	} {
		p := f.Position(tc.off)
		if p.Line != tc.line || p.Col != tc.col16 || p.Col8 != tc.colB {
			t.Errorf("Position(%d) = %+v, want line %d col %d col8 %d", tc.off, p, tc.line, tc.col16, tc.colB)
		}
	}
}

func TestPositionInsideRune(t *testing.T) {
	f := NewFile("x", []byte("😀a"))
	// An offset inside the 4-byte sequence counts the invalid bytes before
	// it one unit each; Offset never lands inside a rune.
	if p := f.Position(2); p.Line != 0 || p.Col8 != 2 {
		t.Errorf("Position(2) = %+v", p)
	}
	if off := f.Offset(0, 1); off != 4 {
		t.Errorf("Offset(0,1) inside a surrogate pair = %d, want 4 (after the rune)", off)
	}
}

func TestOffsetRoundTrip(t *testing.T) {
	text := "{\r\n  \"name\": \"😀é\",\n\t\"v\": \"中文\"\n}"
	f := NewFile("plugin.json", []byte(text))
	for off := 0; off <= len(text); off++ {
		if off < len(text) && !utf8.RuneStart(text[off]) {
			continue
		}
		p := f.Position(off)
		if back := f.Offset(p.Line, p.Col); back != off && !(text[off-1] == '\r' && back == off-1) {
			// The only position that does not round-trip is just after a
			// \r of a CRLF: Offset clamps to the line's end before '\n'.
			if !(off > 0 && text[off-1] == '\r') {
				t.Errorf("Offset(Position(%d)=%+v) = %d", off, p, back)
			}
		}
		// The column matches encoding the line prefix as UTF-16.
		lineStart := off - p.Col8
		if n := len(utf16.Encode([]rune(text[lineStart:off]))); n != p.Col {
			t.Errorf("off %d: col %d, UTF-16 length of prefix %d", off, p.Col, n)
		}
	}
	// Past the line's end clamps to it; past the last line to the file end.
	if off := f.Offset(0, 50); off != 2 {
		t.Errorf("Offset clamps to the line (before \\n) = %d, want 2 (CRLF line keeps \\r)", off)
	}
	if off := f.Offset(99, 0); off != len(text) {
		t.Errorf("Offset past the last line = %d", off)
	}
	if off := f.Offset(-1, 3); off != 0 {
		t.Errorf("Offset(-1) = %d", off)
	}
}

func TestPositionEmptyFile(t *testing.T) {
	f := NewFile("x", nil)
	if p := f.Position(0); p != (Position{}) {
		t.Errorf("%+v", p)
	}
	if f.Offset(0, 5) != 0 {
		t.Error("offset in empty file")
	}
}

// FuzzPositionLongLines: the marks that make columns on long lines cheap
// give the same columns as counting from the line start.
func FuzzPositionLongLines(f *testing.F) {
	f.Add([]byte("aé😀中x\n"), uint16(300))
	f.Add([]byte("\xf0\x9f😀\xe4"), uint16(1000))
	f.Fuzz(func(t *testing.T, unit []byte, reps uint16) {
		text := bytes.Repeat(unit, int(reps)%2000+1)
		file := NewFile("x", text)
		step := max(1, len(text)/500)
		for off := 0; off <= len(text); off += step {
			p := file.Position(off)
			start := bytes.LastIndexByte(text[:off], '\n') + 1
			if want := textpkg.UTF16Len(text[start:off]); p.Col != want || p.Col8 != off-start {
				t.Fatalf("Position(%d) = %+v, want col %d", off, p, want)
			}
		}
	})
}

// A one-line manifest of 40,000 domains, every domain's column asked
// once: linear, not quadratic, in the line length.
func BenchmarkPositionLongLine(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"é":[`)
	for i := range 40_000 {
		fmt.Fprintf(&buf, `"api%d.example.com",`, i)
	}
	buf.WriteString(`""]}`)
	text := buf.Bytes()
	for b.Loop() {
		f := NewFile("plugin.json", text)
		for off := 0; off < len(text); off += 20 {
			f.Position(off)
		}
	}
}
