package jspage

import "github.com/plugin-lsp/plugin-lsp/internal/js/jslex"

// Where a token, an expression or a call ends in the page: esbuild's
// source map gives starts only. The tokens are internal/js/jslex's.

// callEnd finds, from the start of a callee at i, the argument list of
// the call and returns the offset after its closing parenthesis. ok is
// false when no argument list follows at bracket depth 0.
func callEnd(src string, i int) (int, bool) {
	s := jslex.ScanFrom(src, i)
	for depth, first := 0, true; ; first = false {
		t := s.Next()
		if t.Kind == jslex.EOF {
			return 0, false
		}
		if t.Kind == jslex.Punct {
			switch src[t.Start] {
			case '(':
				if first { // a parenthesized callee: (http as any).fetch(…)
					s.SkipBalanced(t)
					continue
				}
				if depth == 0 {
					return s.SkipBalanced(t), true
				}
			case ';', ',':
				if depth == 0 {
					return 0, false
				}
			}
		}
		if depth += jslex.Bracket(src, t); depth < 0 {
			return 0, false
		}
	}
}

// exprEnd returns the end of the expression starting at i: the end of the
// last token before a ',', ';' or unmatched closing bracket at depth 0.
func exprEnd(src string, i int) int {
	s := jslex.ScanFrom(src, i)
	end := i
	for depth := 0; ; {
		t := s.Next()
		if t.Kind == jslex.EOF {
			return end
		}
		if depth += jslex.Bracket(src, t); depth < 0 {
			return end
		}
		if depth == 0 && t.Kind == jslex.Punct && (src[t.Start] == ',' || src[t.Start] == ';') {
			return end
		}
		end = int(t.End)
	}
}

// calleeEnd returns the end of the callee that starts at i: the end of
// the last token before the call's '(' at depth 0 ('<' and '>' of type
// arguments count as brackets).
func calleeEnd(src string, i int) int {
	s := jslex.ScanFrom(src, i)
	end := jslex.TokenEnd(src, i)
	for depth, first := 0, true; ; first = false {
		t := s.Next()
		if t.Kind == jslex.EOF {
			return end
		}
		b := jslex.Bracket(src, t)
		if t.Kind == jslex.Punct {
			switch src[t.Start] {
			case '(':
				if first {
					end = s.SkipBalanced(t)
					continue
				}
				if depth == 0 {
					return end
				}
			case '<':
				b = 1
			case '>':
				b = -1
			case ';', ',':
				if depth == 0 {
					return end
				}
			}
		}
		if depth += b; depth < 0 {
			return end
		}
		end = int(t.End)
	}
}
