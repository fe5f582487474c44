package js

// A small JavaScript/TypeScript tokenizer: just enough to find where a
// token, an expression or a call ends in the original source (esbuild's
// source map gives starts only), and to find top-level import/export
// statements in esbuild's output without being fooled by strings,
// templates, comments or regular expressions.

type tokKind byte

const (
	tEOF tokKind = iota
	tIdent
	tString
	tTemplate
	tNumber
	tRegex
	tPunct
)

type token struct {
	start, end int
	kind       tokKind
}

func (t token) text(src string) string { return src[t.start:t.end] }

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// regexAllowed reports whether a '/' after prev starts a regular
// expression (rather than a division).
func regexAllowed(src string, prev token) bool {
	switch prev.kind {
	case tEOF:
		return true
	case tPunct:
		c := src[prev.start]
		return c != ')' && c != ']'
	case tIdent:
		switch prev.text(src) {
		case "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void",
			"throw", "instanceof", "yield", "await":
			return true
		}
	}
	return false
}

// skipSpace skips whitespace and comments from i.
func skipSpace(src string, i int) int {
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := indexFrom(src, i+2, "*/")
			if j < 0 {
				return len(src)
			}
			i = j + 2
		case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9):
			i += 3 // U+2028, U+2029
		case c == 0xC2 && i+1 < len(src) && src[i+1] == 0xA0:
			i += 2 // NBSP
		case c == 0xEF && i+2 < len(src) && src[i+1] == 0xBB && src[i+2] == 0xBF:
			i += 3 // BOM
		default:
			return i
		}
	}
	return i
}

func indexFrom(s string, from int, sub string) int {
	for j := from; j+len(sub) <= len(s); j++ {
		if s[j:j+len(sub)] == sub {
			return j
		}
	}
	return -1
}

// next returns the token at or after i.
func next(src string, i int, prev token) token {
	i = skipSpace(src, i)
	if i >= len(src) {
		return token{len(src), len(src), tEOF}
	}
	c := src[i]
	switch {
	case c == '"' || c == '\'':
		return token{i, scanQuoted(src, i), tString}
	case c == '`':
		return token{i, scanTemplate(src, i), tTemplate}
	case isIdentStart(c) || c == '\\' || c == '#':
		j := i + 1
		for j < len(src) && (isIdentPart(src[j]) || src[j] == '\\') {
			j++
		}
		return token{i, j, tIdent}
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		j := i + 1
		for j < len(src) && (isIdentPart(src[j]) || src[j] == '.' ||
			(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
			j++
		}
		return token{i, j, tNumber}
	case c == '/' && regexAllowed(src, prev):
		return token{i, scanRegex(src, i), tRegex}
	}
	return token{i, i + 1, tPunct}
}

func scanQuoted(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j // unterminated
		}
	}
	return len(src)
}

func scanRegex(src string, i int) int {
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '\n':
			return j
		case '/':
			if !inClass {
				j++
				for j < len(src) && isIdentPart(src[j]) {
					j++
				}
				return j
			}
		}
	}
	return len(src)
}

// scanTemplate returns the end of the template literal starting at i,
// skipping nested ${…} expressions (which may hold templates).
func scanTemplate(src string, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j + 1
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				j = skipBalanced(src, j+1) - 1
			}
		}
	}
	return len(src)
}

// skipBalanced returns the offset after the bracket that closes the one
// at open ('(', '[' or '{'), or len(src) when it never closes.
func skipBalanced(src string, open int) int {
	depth := 0
	prev := token{}
	for i := open; ; {
		t := next(src, i, prev)
		if t.kind == tEOF {
			return len(src)
		}
		if t.kind == tPunct {
			switch src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				if depth == 0 {
					return t.end
				}
			}
		}
		prev, i = t, t.end
	}
}

// tokenEnd returns the end of the token that starts at i.
func tokenEnd(src string, i int) int {
	if i < 0 || i >= len(src) {
		return i
	}
	return next(src, i, token{}).end
}

// callEnd finds, from the start of a callee at i, the argument list of
// the call and returns the offset after its closing parenthesis. ok is
// false when no argument list follows at bracket depth 0.
func callEnd(src string, i int) (int, bool) {
	prev := token{}
	for depth, first := 0, true; ; first = false {
		t := next(src, i, prev)
		if t.kind == tEOF {
			return 0, false
		}
		if t.kind == tPunct {
			switch c := src[t.start]; c {
			case '(':
				if first { // a parenthesized callee: (http as any).fetch(…)
					prev, i = token{t.start, t.start + 1, tPunct}, skipBalanced(src, t.start)
					prev = token{i - 1, i, tPunct}
					continue
				}
				if depth == 0 {
					return skipBalanced(src, t.start), true
				}
				depth++
			case '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				if depth < 0 {
					return 0, false
				}
			case ';', ',':
				if depth == 0 {
					return 0, false
				}
			}
		}
		prev, i = t, t.end
	}
}

// exprEnd returns the end of the expression starting at i: the end of the
// last token before a ',', ';' or unmatched closing bracket at depth 0.
func exprEnd(src string, i int) int {
	prev := token{}
	end := i
	for depth := 0; ; {
		t := next(src, i, prev)
		if t.kind == tEOF {
			return end
		}
		if t.kind == tPunct {
			switch src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				if depth < 0 {
					return end
				}
			case ',', ';':
				if depth == 0 {
					return end
				}
			}
		}
		end = t.end
		prev, i = t, t.end
	}
}
