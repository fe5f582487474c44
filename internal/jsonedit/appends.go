package jsonedit

import (
	"encoding/json"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Appends reports whether e is AppendToArray's edit of a non-empty array
// with a scalar value: an insertion of a comma and the value after the
// last element. Several such edits made against the same text insert at
// the same offset, and applied there together, in order, they give what
// applying them one after another (each made against the text the last
// one left) gives. Any other insertion into a JSON container (the first
// element, a new member) does not compose that way.
func Appends(e checker.Edit) bool {
	if e.Create || e.Span.Start != e.Span.End || !strings.HasPrefix(e.NewText, ",") {
		return false
	}
	v := strings.TrimSpace(e.NewText[1:])
	if v == "" || v[0] == '{' || v[0] == '[' {
		return false
	}
	return json.Valid([]byte(v))
}
