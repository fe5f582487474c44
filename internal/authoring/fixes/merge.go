package fixes

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
)

// Merge joins fixes made against the same texts into one edit set, in
// order: a fix is taken when each of its edits agrees with every edit
// taken before it (another file, or apart in the same file, or an
// append to the same JSON array: jsonedit.Appends). An edit equal to one
// already taken is applied once, and a fix whose edits were all taken
// already is not counted. The fixes left over conflict with the set: the
// caller applies the set, checks again and merges the fixes of that
// check. taken counts the fixes in the set.
func Merge(fxs []checker.Fix) (edits []checker.Edit, taken int, left []checker.Fix) {
	for _, fx := range fxs {
		var add []checker.Edit
		ok := len(fx.Edits) > 0
		for _, e := range fx.Edits {
			dup := false
			for _, t := range edits {
				if e == t {
					dup = true
					break
				}
				if !agree(e, t) {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
			for _, t := range add { // edits of one fix agree by construction
				if e == t {
					dup = true
				}
			}
			if !dup {
				add = append(add, e)
			}
		}
		switch {
		case !ok:
			left = append(left, fx)
		case len(add) > 0:
			edits = append(edits, add...)
			taken++
		}
	}
	return edits, taken, left
}

// agree reports whether edits a and b, made against the same text, can
// be applied together.
func agree(a, b checker.Edit) bool {
	if a.File != b.File {
		return true
	}
	if a.Create || b.Create {
		return false
	}
	if a.Span.Start < b.Span.End && b.Span.Start < a.Span.End {
		return false // overlap
	}
	ia, ib := a.Span.Start == a.Span.End, b.Span.Start == b.Span.End
	switch {
	case ia && ib && a.Span.Start == b.Span.Start:
		return jsonedit.Appends(a) && jsonedit.Appends(b)
	case ia && (a.Span.Start == b.Span.Start || a.Span.Start == b.Span.End):
		return false // an insertion at the edge of a replaced span: which side?
	case ib && (b.Span.Start == a.Span.Start || b.Span.Start == a.Span.End):
		return false
	}
	return true
}
