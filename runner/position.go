package runner

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/js"
)

// hostCallPosition places the error of a failed host call at the call
// itself: QuickJS reports the position where the caller's frame stopped,
// which for `http.fetch(…)` is the method name, or a call nested in the
// arguments. The page's analysis (the one check uses) lists the calls; the
// innermost call of that method around the reported position wins, else
// the nearest one before it. It returns the 1-based line and column of the
// callee's start (where check puts a diagnostic about that call), or ok
// false when the file cannot be read or holds no such call.
func hostCallPosition(p *analysis.Plugin, file string, line, col int, method string) (int, int, bool) {
	if file == "" || line <= 0 || method == "" {
		return 0, 0, false
	}
	text, err := readInside(p, file)
	if err != nil {
		return 0, 0, false
	}
	f := analysis.NewFile(file, text)
	off := f.Offset(line-1, col-1)
	page := js.AnalyzePage(file, text)
	// the innermost call of that method around off, else the nearest one
	// that starts before it
	best, around := -1, false
	for i, c := range page.Calls {
		if c.Object+"."+c.Method != method || c.Span.Start > off {
			continue
		}
		in := off < c.Span.End
		switch {
		case best < 0, in && !around:
			best, around = i, in
		case in && around:
			if c.Span.End-c.Span.Start < page.Calls[best].Span.End-page.Calls[best].Span.Start {
				best = i
			}
		case !in && !around && c.Span.Start > page.Calls[best].Span.Start:
			best = i
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	pos := f.Position(page.Calls[best].Callee.Start)
	return pos.Line + 1, pos.Col + 1, true
}

// returnPosition places a ResultError at the statement that returned the
// value: the page analysis (the one check uses) lists the return
// statements of the default export function, or its arrow's expression
// body. Only when there is exactly one is it known which returned; ok is
// false otherwise (several returns, a function defined in another file, a
// page that cannot be read).
func returnPosition(p *analysis.Plugin, page string) (int, int, bool) {
	text, err := readInside(p, page)
	if err != nil {
		return 0, 0, false
	}
	rs := js.AnalyzePage(page, text).DefaultExport.Returns
	if len(rs) != 1 {
		return 0, 0, false
	}
	pos := analysis.NewFile(page, text).Position(rs[0].Start)
	return pos.Line + 1, pos.Col + 1, true
}

// replaceFirstFrame rewrites the first "file:line:col" of a mapped stack.
func replaceFirstFrame(stack, file string, line, col, nl, nc int) string {
	old := fmt.Sprintf("%s:%d:%d", file, line, col)
	return strings.Replace(stack, old, fmt.Sprintf("%s:%d:%d", file, nl, nc), 1)
}
