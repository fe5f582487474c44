package esm

// The lexer finds what goja's parser cannot read (import and export
// statements, import.meta, dynamic import) and the CommonJS markers and
// alwaysGate mentions. It knows strings, template literals, comments and
// regular expressions (by the usual previous-token heuristic), so a
// keyword inside any of them is never mistaken for code.

type tokKind uint8

const (
	tIdent tokKind = iota + 1
	tPunct
	tString
	tNumber
	tRegex
	tTemplate     // a whole template or its tail: a value
	tTemplateHead // a template part ending in "${": like an open paren
	tPrivate
)

type lexToken struct {
	kind       tokKind
	start, end int32
	depth      int32 // bracket depth before the token
	nl         bool  // a line break precedes the token
}

func isIdentStart(c byte) bool {
	return c == '$' || c == '_' || c == '\\' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// regexAllowed reports whether a '/' after prev starts a regular
// expression rather than a division.
func regexAllowed(src []byte, prev *lexToken) bool {
	if prev == nil {
		return true
	}
	switch prev.kind {
	case tIdent:
		switch string(src[prev.start:prev.end]) {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
			"throw", "case", "do", "else", "yield", "await", "default", "extends":
			return true
		}
		return false
	case tPunct:
		switch src[prev.start] {
		case ')', ']':
			return false
		case '+', '-':
			// x++ / 2 is rare; ++/re/ is rarer still.
			return prev.end-prev.start == 1
		}
		return true
	case tTemplateHead:
		return true
	}
	return false
}

// lex splits src into tokens. It never fails: an unterminated string,
// comment or template ends at the end of its line or of the input, and
// the parser reports the error.
func lex(src []byte) []lexToken {
	toks := make([]lexToken, 0, len(src)/4+8)
	var stack []byte // '(', '[', '{' or 't' (a template's "${")
	n := len(src)
	i := 0
	nl := false
	if n >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3
	}
	if n >= i+2 && src[i] == '#' && src[i+1] == '!' { // hashbang
		for i < n && src[i] != '\n' && src[i] != '\r' {
			i++
		}
	}
	emit := func(k tokKind, s, e int) {
		toks = append(toks, lexToken{kind: k, start: int32(s), end: int32(e), depth: int32(len(stack)), nl: nl})
		nl = false
	}
	last := func() *lexToken {
		if len(toks) == 0 {
			return nil
		}
		return &toks[len(toks)-1]
	}
	// template scans template characters from i (just after ` or }) and
	// emits the part; it returns the new offset.
	template := func(s, i int) int {
		for i < n {
			switch src[i] {
			case '\\':
				i += 2
				continue
			case '`':
				emit(tTemplate, s, i+1)
				return i + 1
			case '$':
				if i+1 < n && src[i+1] == '{' {
					emit(tTemplateHead, s, i+2)
					stack = append(stack, 't')
					return i + 2
				}
			}
			i++
		}
		emit(tTemplate, s, n)
		return n
	}
	for i < n {
		c := src[i]
		switch {
		case c == '\n' || c == '\r':
			nl = true
			i++
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			i++
		case c == 0xEF && i+2 < n && src[i+1] == 0xBB && src[i+2] == 0xBF: // BOM
			i += 3
		case c == 0xC2 && i+1 < n && src[i+1] == 0xA0: // no-break space
			i += 2
		case c == 0xE2 && i+2 < n && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9): // LS, PS
			nl = true
			i += 3
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := i + 2
			for j < n && !(src[j] == '*' && j+1 < n && src[j+1] == '/') {
				if src[j] == '\n' || src[j] == '\r' {
					nl = true
				}
				j++
			}
			i = min(j+2, n)
		case c == '/' && regexAllowed(src, last()):
			j, inClass := i+1, false
			for j < n && src[j] != '\n' && src[j] != '\r' {
				if src[j] == '\\' {
					j += 2
					continue
				}
				if src[j] == '[' {
					inClass = true
				} else if src[j] == ']' {
					inClass = false
				} else if src[j] == '/' && !inClass {
					break
				}
				j++
			}
			j = min(j+1, n)
			for j < n && isIdentPart(src[j]) {
				j++
			}
			emit(tRegex, i, j)
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < n && src[j] != c && src[j] != '\n' && src[j] != '\r' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, n)
			emit(tString, i, j)
			i = j
		case c == '`':
			i = template(i, i+1)
		case c >= '0' && c <= '9' || (c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9'):
			j := i + 1
			for j < n && (isIdentPart(src[j]) || src[j] == '.' ||
				((src[j] == '+' || src[j] == '-') && (src[j-1]|0x20 == 'e') && src[i] != '0')) {
				j++
			}
			emit(tNumber, i, j)
			i = j
		case c == '#' && i+1 < n && isIdentStart(src[i+1]):
			j := i + 1
			for j < n && isIdentPart(src[j]) {
				j++
			}
			emit(tPrivate, i, j)
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < n && isIdentPart(src[j]) {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, n)
			emit(tIdent, i, j)
			i = j
		default:
			switch c {
			case '(', '[', '{':
				emit(tPunct, i, i+1)
				stack = append(stack, c)
				i++
			case ')', ']':
				if len(stack) > 0 && stack[len(stack)-1] != 't' {
					stack = stack[:len(stack)-1]
				}
				emit(tPunct, i, i+1)
				i++
			case '}':
				if len(stack) > 0 && stack[len(stack)-1] == 't' {
					stack = stack[:len(stack)-1]
					i = template(i, i+1)
					continue
				}
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
				emit(tPunct, i, i+1)
				i++
			case '.':
				if i+2 < n && src[i+1] == '.' && src[i+2] == '.' {
					emit(tPunct, i, i+3)
					i += 3
				} else {
					emit(tPunct, i, i+1)
					i++
				}
			case '?':
				if i+1 < n && src[i+1] == '.' && !(i+2 < n && src[i+2] >= '0' && src[i+2] <= '9') {
					emit(tPunct, i, i+2)
					i += 2
				} else {
					emit(tPunct, i, i+1)
					i++
				}
			case '+', '-':
				if i+1 < n && src[i+1] == c {
					emit(tPunct, i, i+2)
					i += 2
				} else {
					emit(tPunct, i, i+1)
					i++
				}
			default:
				emit(tPunct, i, i+1)
				i++
			}
		}
	}
	return toks
}
