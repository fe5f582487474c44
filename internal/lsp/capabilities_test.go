package lsp

import (
	"strings"
	"testing"
	utf8pkg "unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

func TestPositionEncodings(t *testing.T) {
	text := "a é😀 b\n\"ü\": \"𝄞x\"\r\nlast"
	f := checker.NewFile("", []byte(text))
	for _, enc := range []encoding{encUTF16, encUTF8} {
		for off := 0; off <= len(text); off++ {
			if off < len(text) && !utf8pkg.RuneStart(text[off]) {
				continue
			}
			if got := enc.fromPosition(f, enc.toPosition(f, off)); got != off && text[max(off-1, 0)] != '\r' {
				t.Errorf("%s: offset %d → %v → %d", enc.kind(), off, enc.toPosition(f, off), got)
			}
		}
	}
	// "é" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units: "b"
	// is at character 9 in utf-8 and 6 in utf-16.
	b := strings.Index(text, "b")
	if p := encUTF8.toPosition(f, b); p.Character != 9 {
		t.Errorf("utf-8 column of b: %d", p.Character)
	}
	if p := encUTF16.toPosition(f, b); p.Character != 6 {
		t.Errorf("utf-16 column of b: %d", p.Character)
	}
	// A utf-8 column inside a character means the character's start; one
	// past the line's end means the end of the line.
	if got := encUTF8.fromPosition(f, protocol.Position{Line: 0, Character: 5}); got != strings.Index(text, "😀") {
		t.Errorf("mid-character column → %d", got)
	}
	if got := encUTF8.fromPosition(f, protocol.Position{Line: 0, Character: 999}); got != strings.Index(text, "\n") {
		t.Errorf("column past the end → %d", got)
	}
	if negotiateEncoding([]protocol.PositionEncodingKind{"utf-32", "utf-16"}) != encUTF16 || negotiateEncoding(nil) != encUTF16 ||
		negotiateEncoding([]protocol.PositionEncodingKind{"utf-32", "utf-8"}) != encUTF8 {
		t.Error("negotiation: utf-8 when offered, utf-16 otherwise")
	}
}
