// Package jslex is a small JavaScript tokenizer shared by the page
// analysis (internal/js/jspage) and the native-module export reader
// (internal/js/jsmodule): just enough to find token, expression and statement
// ends and the top-level import/export statements without being fooled by
// strings, template literals, comments or regular expressions. It never
// fails: an unterminated string, comment, regular expression or template
// ends at the end of its line or of the input, and the parser that reads
// the code afterwards reports the error.
//
// Offsets are byte offsets into the source. The package has no state
// beyond a Scanner's and no dependency inside this module.
package jslex

import "strings"

// Kind is the kind of a token.
type Kind uint8

const (
	EOF Kind = iota
	Ident
	Punct
	String
	Number
	Regex
	// Template is a whole template literal (`…`) or the tail of one (}…`):
	// a value, or a closing bracket for the TemplateHead before it.
	Template
	// TemplateHead is a template part ending in "${" (`…${ or }…${): an
	// opening bracket.
	TemplateHead
	// Private is a private name: #name.
	Private
)

// Token is one token. Punctuators are single bytes except "...", "?.",
// "++" and "--".
type Token struct {
	Start, End int32
	// Depth is the bracket depth ((, [, { and template substitutions)
	// before the token; a closing bracket has the depth of its opening one.
	Depth int32
	Kind  Kind
	// NL reports a line break between the previous token and this one.
	NL bool
}

// Text returns the token's source text.
func (t Token) Text(src string) string { return src[t.Start:t.End] }

// Is reports whether the token's text is s.
func (t Token) Is(src, s string) bool {
	return int(t.End-t.Start) == len(s) && src[t.Start:t.End] == s
}

// Bracket returns +1 when t opens a bracket ('(', '[', '{' or a template's
// first "${"), -1 when it closes one (')', ']', '}' or a template's tail)
// and 0 otherwise (a template's middle part closes one substitution and
// opens the next).
func Bracket(src string, t Token) int {
	switch t.Kind {
	case Punct:
		switch src[t.Start] {
		case '(', '[', '{':
			return 1
		case ')', ']', '}':
			return -1
		}
	case TemplateHead:
		if src[t.Start] == '`' {
			return 1
		}
	case Template:
		if src[t.Start] == '}' {
			return -1
		}
	}
	return 0
}

// IsIdentStart reports whether c may start an identifier (bytes of
// non-ASCII characters count as letters; a '\' escape is the scanner's).
func IsIdentStart(c byte) bool {
	return c == '$' || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80
}

// IsIdentPart reports whether c may continue an identifier.
func IsIdentPart(c byte) bool { return IsIdentStart(c) || (c >= '0' && c <= '9') }

func isHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

// space returns the length of the white space character at i (0 when
// there is none) and whether it is a line terminator. Besides ASCII it
// knows the Unicode spaces of the JavaScript grammar.
func space(src string, i int) (int, bool) {
	c := src[i]
	switch c {
	case '\n', '\r':
		return 1, true
	case ' ', '\t', '\v', '\f':
		return 1, false
	}
	if c < 0x80 || i+1 >= len(src) {
		return 0, false
	}
	c1 := src[i+1]
	if c == 0xC2 && c1 == 0xA0 { // no-break space
		return 2, false
	}
	if i+2 >= len(src) {
		return 0, false
	}
	c2 := src[i+2]
	switch {
	case c == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9): // LS, PS
		return 3, true
	case c == 0xEF && c1 == 0xBB && c2 == 0xBF, // BOM
		c == 0xE1 && c1 == 0x9A && c2 == 0x80,                               // U+1680
		c == 0xE2 && c1 == 0x80 && (c2 >= 0x80 && c2 <= 0x8A || c2 == 0xAF), // U+2000–U+200A, U+202F
		c == 0xE2 && c1 == 0x81 && c2 == 0x9F,                               // U+205F
		c == 0xE3 && c1 == 0x80 && c2 == 0x80:                               // U+3000
		return 3, false
	}
	return 0, false
}

// lineEnd returns the offset of the line terminator at or after i (or
// len(src)).
func lineEnd(src string, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case '\n', '\r':
			return i
		case 0xE2:
			if n, nl := space(src, i); n > 0 && nl {
				return i
			}
		}
	}
	return i
}

// hasLineBreak reports whether s holds a line terminator.
func hasLineBreak(s string) bool { return lineEnd(s, 0) < len(s) }

// SkipSpace returns the offset of the first byte at or after i that is
// neither white space nor inside a comment.
func SkipSpace(src string, i int) int {
	i, _ = skipSpace(src, i)
	return i
}

func skipSpace(src string, i int) (int, bool) {
	nl := false
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\n':
			nl = true
			i++
		case c > '/' && c < 0x80:
			return i, nl
		case c >= 0x80:
			n, brk := space(src, i)
			if n == 0 {
				return i, nl
			}
			nl = nl || brk
			i += n
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = lineEnd(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := len(src)
			if j := strings.Index(src[i+2:], "*/"); j >= 0 {
				end = i + 2 + j + 2
			}
			nl = nl || hasLineBreak(src[i:end])
			i = end
		default:
			n, brk := space(src, i)
			if n == 0 {
				return i, nl
			}
			nl = nl || brk
			i += n
		}
	}
	return i, nl
}

// Prologue returns the length of the byte-order mark and hashbang line
// that may open a module: what a module's lexer skips.
func Prologue(src string) int {
	i := 0
	if strings.HasPrefix(src, "\uFEFF") {
		i = 3
	}
	if strings.HasPrefix(src[i:], "#!") {
		i = lineEnd(src, i)
	}
	return i
}

// identEnd returns the end of the identifier characters from i: ASCII
// letters, digits, '$', '_', non-ASCII characters other than spaces, and
// escapes (\u0041, \u{41}).
func identEnd(src string, i int) int {
	for i < len(src) {
		c := src[i]
		switch {
		case c < 0x80 && IsIdentPart(c):
			i++
		case c == '\\':
			i = escapeEnd(src, i)
		case c >= 0x80:
			if n, _ := space(src, i); n > 0 {
				return i
			}
			i++
		default:
			return i
		}
	}
	return i
}

// escapeEnd returns the end of the escape starting with the '\' at i.
func escapeEnd(src string, i int) int {
	n := len(src)
	if i+1 >= n || src[i+1] == '\n' || src[i+1] == '\r' {
		return i + 1
	}
	if src[i+1] != 'u' {
		return i + 2
	}
	j := i + 2
	if j < n && src[j] == '{' {
		k := j + 1
		for k < n && k < j+8 && isHex(src[k]) {
			k++
		}
		if k < n && src[k] == '}' {
			return k + 1
		}
		return k
	}
	for j < n && j < i+6 && isHex(src[j]) {
		j++
	}
	return j
}

// regexKeywords are the words after which a '/' starts a regular
// expression.
func regexKeyword(w string) bool {
	switch w {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
		"throw", "case", "do", "else", "yield", "await", "default", "extends":
		return true
	}
	return false
}

// Scanner reads tokens one at a time.
type Scanner struct {
	src   string
	i     int
	depth int     // open brackets
	tmpl  uint64  // bit k: bracket k is a template's "${" (k < 64)
	deep  []bool  // the same for brackets 64 and deeper
	prev  Token   // the last token; Kind EOF before the first
	toks  []Token // when not nil, every token is appended (Lex)
}

// push opens a bracket; tmpl tells a template's "${".
func (s *Scanner) push(tmpl bool) {
	if k := s.depth; k < 64 {
		s.tmpl = s.tmpl&^(1<<k) | b2u(tmpl)<<k
	} else if k-64 < len(s.deep) {
		s.deep[k-64] = tmpl
	} else {
		s.deep = append(s.deep, tmpl)
	}
	s.depth++
}

// top reports whether the innermost open bracket is a template's "${";
// depth must be > 0.
func (s *Scanner) top() bool {
	if k := s.depth - 1; k < 64 {
		return s.tmpl>>k&1 == 1
	}
	return s.deep[s.depth-1-64]
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// NewScanner scans a module from its start, skipping its Prologue.
func NewScanner(src string) *Scanner { return &Scanner{src: src, i: Prologue(src)} }

// ScanFrom scans from offset at, at bracket depth 0, as if a statement or
// an expression started there.
func ScanFrom(src string, at int) *Scanner {
	return &Scanner{src: src, i: max(0, min(at, len(src)))}
}

// Lex returns every token of the module src (without the EOF token).
func Lex(src string) []Token {
	s := NewScanner(src)
	s.toks = make([]Token, 0, len(src)/4+8)
	for s.scan() {
	}
	return s.toks
}

// regexAllowed reports whether a '/' after the previous token starts a
// regular expression rather than a division.
func (s *Scanner) regexAllowed() bool {
	p := s.prev
	switch p.Kind {
	case EOF, TemplateHead:
		return true
	case Ident:
		return regexKeyword(p.Text(s.src))
	case Punct:
		switch s.src[p.Start] {
		case ')', ']':
			return false
		case '+', '-':
			// x++ / 2 is rare; ++/re/ is rarer still.
			return p.End-p.Start == 1
		}
		return true
	}
	return false
}

func (s *Scanner) emit(k Kind, start, end int, nl bool) {
	t := Token{Start: int32(start), End: int32(end), Depth: int32(s.depth), Kind: k, NL: nl}
	s.prev, s.i = t, end
	if s.toks != nil {
		// Appended from registers: copying s.prev back would stall.
		s.toks = append(s.toks, t)
	}
}

// template scans template characters from i (just after ` or }) for the
// part starting at start.
func (s *Scanner) template(start, i int, nl bool) {
	src, n := s.src, len(s.src)
	for i < n {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '`':
			s.emit(Template, start, i+1, nl)
			return
		case '$':
			if i+1 < n && src[i+1] == '{' {
				s.emit(TemplateHead, start, i+2, nl)
				s.push(true)
				return
			}
		}
		i++
	}
	s.emit(Template, start, n, nl)
}

// Next returns the next token, or a token of kind EOF at the end.
func (s *Scanner) Next() Token {
	if s.scan() {
		return s.prev
	}
	return Token{Start: int32(len(s.src)), End: int32(len(s.src)), Depth: int32(s.depth), Kind: EOF}
}

// scan reads the next token into s.prev; false at the end.
func (s *Scanner) scan() bool {
	src, n := s.src, len(s.src)
	i, nl := skipSpace(src, s.i)
	if i >= n {
		s.i = n
		return false
	}
	c := src[i]
	switch {
	case c == '"' || c == '\'':
		j := i + 1
		for j < n && src[j] != c && src[j] != '\n' && src[j] != '\r' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		if j < n && src[j] == c {
			j++
		}
		s.emit(String, i, min(j, n), nl)
		return true
	case c == '`':
		s.template(i, i+1, nl)
		return true
	case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
		hex := c == '0' && i+1 < n && src[i+1]|0x20 == 'x'
		j := i + 1
		for j < n && (IsIdentPart(src[j]) || src[j] == '.' ||
			(src[j] == '+' || src[j] == '-') && src[j-1]|0x20 == 'e' && !hex) {
			j++
		}
		s.emit(Number, i, j, nl)
		return true
	case c == '#' && i+1 < n && (IsIdentStart(src[i+1]) || src[i+1] == '\\'):
		s.emit(Private, i, identEnd(src, i+1), nl)
		return true
	case IsIdentStart(c) || c == '\\':
		j := identEnd(src, i)
		if j == i { // a non-ASCII space is the skipper's; cannot happen
			j = i + 1
		}
		s.emit(Ident, i, j, nl)
		return true
	case c == '/' && s.regexAllowed():
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
				j++
				for j < n && IsIdentPart(src[j]) {
					j++
				}
				break
			}
			j++
		}
		s.emit(Regex, i, min(j, n), nl)
		return true
	}
	switch c {
	case '(', '[', '{':
		s.emit(Punct, i, i+1, nl)
		s.push(false)
		return true
	case ')', ']':
		if s.depth > 0 && !s.top() {
			s.depth--
		}
	case '}':
		if s.depth > 0 {
			tmpl := s.top()
			s.depth--
			if tmpl {
				s.template(i, i+1, nl)
				return true
			}
		}
	case '.':
		if strings.HasPrefix(src[i:], "...") {
			s.emit(Punct, i, i+3, nl)
			return true
		}
	case '?':
		if i+1 < n && src[i+1] == '.' && !(i+2 < n && src[i+2] >= '0' && src[i+2] <= '9') {
			s.emit(Punct, i, i+2, nl)
			return true
		}
	case '+', '-':
		if i+1 < n && src[i+1] == c {
			s.emit(Punct, i, i+2, nl)
			return true
		}
	}
	s.emit(Punct, i, i+1, nl)
	return true
}

// SkipBalanced reads tokens up to the one that closes the bracket open
// (a token this scanner just returned, with Bracket(open) > 0) and
// returns the offset after it, or len(src) when it never closes.
func (s *Scanner) SkipBalanced(open Token) int {
	depth := 1
	for {
		t := s.Next()
		if t.Kind == EOF {
			return len(s.src)
		}
		depth += Bracket(s.src, t)
		if depth == 0 {
			return int(t.End)
		}
	}
}

// TokenEnd returns the end of the token at or after i; a template literal
// is one token, substitutions included.
func TokenEnd(src string, i int) int {
	if i < 0 || i >= len(src) {
		return i
	}
	s := ScanFrom(src, i)
	t := s.Next()
	if t.Kind == TemplateHead {
		return s.SkipBalanced(t)
	}
	return int(t.End)
}
