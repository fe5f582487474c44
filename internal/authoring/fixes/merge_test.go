package fixes

import (
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

func TestMerge(t *testing.T) {
	ed := func(file string, start, end int, text string) checker.Edit {
		return checker.Edit{File: file, Span: checker.Span{Start: start, End: end}, NewText: text}
	}
	fix := func(es ...checker.Edit) checker.Fix { return checker.Fix{Title: "f", Edits: es} }
	for _, c := range []struct {
		name        string
		fixes       []checker.Fix
		taken, left int
	}{
		{"apart", []checker.Fix{fix(ed("a", 0, 1, "x")), fix(ed("a", 5, 6, "y"))}, 2, 0},
		{"other files", []checker.Fix{fix(ed("a", 0, 1, "x")), fix(ed("b", 0, 1, "y"))}, 2, 0},
		{"overlap", []checker.Fix{fix(ed("a", 0, 4, "x")), fix(ed("a", 3, 6, "y"))}, 1, 1},
		{"the same fix twice", []checker.Fix{fix(ed("a", 9, 9, `, "h"`)), fix(ed("a", 9, 9, `, "h"`))}, 1, 0},
		{"two appends to one array", []checker.Fix{fix(ed("a", 9, 9, `, "h"`)), fix(ed("a", 9, 9, ",\n  \"i\""))}, 2, 0},
		{"two first elements", []checker.Fix{fix(ed("a", 9, 9, `"h"`)), fix(ed("a", 9, 9, `"i"`))}, 1, 1},
		{"two new members", []checker.Fix{fix(ed("a", 9, 9, `, "fetch": ["h"]`)), fix(ed("a", 9, 9, `, "fetch": ["i"]`))}, 1, 1},
		{"insertion at the edge of a replacement", []checker.Fix{fix(ed("a", 5, 9, `"new"`)), fix(ed("a", 9, 9, `, "h"`))}, 1, 1},
		{"a created file", []checker.Fix{fix(checker.Edit{File: "a", Create: true, NewText: "x"}), fix(ed("a", 0, 0, "y"))}, 1, 1},
		{"a fix whose second edit conflicts is left whole", []checker.Fix{fix(ed("a", 0, 4, "x")), fix(ed("b", 0, 1, "y"), ed("a", 2, 3, "z"))}, 1, 1},
		{"a fix without edits", []checker.Fix{fix()}, 0, 1},
	} {
		edits, taken, left := Merge(c.fixes)
		if taken != c.taken || len(left) != c.left {
			t.Errorf("%s: taken %d, left %d; want %d, %d (edits %v)", c.name, taken, len(left), c.taken, c.left, edits)
		}
	}
}
