package js

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// naivePos and naiveOffset decode from the line start: what lineIndex
// answered before it kept marks on long lines.
func naivePos(text string, off int) (line, col16 int) {
	off = max(0, min(off, len(text)))
	start := strings.LastIndexByte(text[:off], '\n') + 1
	line = strings.Count(text[:start], "\n")
	for i := start; i < off; {
		r, size := utf8.DecodeRuneInString(text[i:])
		col16 += 1 + btoi(r >= 0x10000)
		i += size
	}
	return line, col16
}

func naiveOffset(text string, line, col16 int) int {
	if line < 0 {
		return 0
	}
	off := 0
	for l := 0; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	end := len(text)
	if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
		end = off + i
	}
	for n := 0; off < end && n < col16; {
		r, size := utf8.DecodeRuneInString(text[off:end])
		n += 1 + btoi(r >= 0x10000)
		off += size
	}
	return off
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The marks on long lines change no answer: texts with long and short
// lines, 2-, 3- and 4-byte runes and invalid bytes, every offset and
// every column checked against decoding from the line start.
func TestLineIndexMarksAgreeWithDecoding(t *testing.T) {
	pieces := []string{"a", "bc", "é", "€", "😀", "\xff", "\xe2\x82", "\n", "x = 1;", strings.Repeat("y", 300)}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 25; round++ {
		var b strings.Builder
		n := 1 + rng.IntN(250)
		for i := 0; i < n; i++ {
			p := pieces[rng.IntN(len(pieces))]
			if p == "\n" && rng.IntN(4) > 0 {
				p = "q" // mostly long lines
			}
			b.WriteString(p)
		}
		text := b.String()
		li := newLineIndex(text)
		if len(text) > 2*markEvery && len(li.marks) == 0 {
			t.Fatalf("round %d: a %d-byte text has no marks", round, len(text))
		}
		for off := -1; off <= len(text)+1; off++ {
			l, c := li.pos(off)
			nl, nc := naivePos(text, off)
			if l != nl || c != nc {
				t.Fatalf("round %d: pos(%d) = %d:%d, decoding says %d:%d", round, off, l, c, nl, nc)
			}
			if off >= 0 && off <= len(text) {
				if got, want := li.offset(l, c), naiveOffset(text, l, c); got != want {
					t.Fatalf("round %d: offset(%d, %d) = %d, decoding says %d", round, l, c, got, want)
				}
			}
		}
		for l := -1; l <= len(li.starts); l++ {
			for c := 0; c < 700; c += 1 + rng.IntN(7) {
				if got, want := li.offset(l, c), naiveOffset(text, l, c); got != want {
					t.Fatalf("round %d: offset(%d, %d) = %d, decoding says %d", round, l, c, got, want)
				}
			}
		}
	}
}

// A page's analysis grows linearly with its size (esbuild's output is one
// line of the whole bundle; before the marks every position conversion
// decoded that line from its start, and 400 KB took 27 s where 100 KB
// took 2 s). Compare the two sizes' ns/op.
func BenchmarkLongLinePage(b *testing.B) {
	for _, size := range []int{100 << 10, 400 << 10} {
		src := []byte(longLinePage(size))
		b.Run(itoa(size>>10)+"KB", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				AnalyzeBundles([]string{"code/p.ts"}, func(string) ([]byte, error) { return src, nil })
			}
		})
	}
}

func longLinePage(size int) string {
	var b strings.Builder
	b.WriteString("const API = \"https://api.example.org\";\n")
	for n := 0; b.Len() < size-300; n++ {
		b.WriteString("function helper" + strings.Repeat("x", n%5) + itoa(n) + "(x: string, n: number): string {\n  const parts = x.split(\",\").map((p) => p.trim());\n  return parts.slice(0, n).join(\"-\");\n}\n")
	}
	b.WriteString("export default async function tool(input: { q: string }) {\n  const res = await http.fetch(`${API}/search?q=${encodeURIComponent(input.q)}`);\n  return { type: \"markdown\", text: await res.text() };\n}\n")
	return b.String()
}
