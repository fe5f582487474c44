package jslex

import (
	"fmt"
	"strings"
)

// Limits of the code the checker and the compiler read. esbuild's and
// goja's parsers recurse once per nesting level and a Go stack overflow is
// fatal (it cannot be recovered), so code is measured with this package's
// tokenizer, which keeps no stack, before either parser sees it.
const (
	// MaxSource is the largest page or native module that is parsed.
	MaxSource = 4 << 20
	// MaxNesting bounds how deeply code nests: brackets, plus the
	// operators, member accesses, calls, keywords (typeof, new, if, for…)
	// and labels of one statement, which parsers and tree walkers also
	// recurse on. Hand-written code stays far below it; the parsers'
	// stacks overflow only some hundred times above it.
	MaxNesting = 1000
)

// LimitError is code over a limit: Offset is where it was exceeded.
// Callers report Message at Offset in their own file's positions, so it
// is not an error value of its own.
type LimitError struct {
	Offset  int
	Message string
}

// CheckLimits reports the first place where src exceeds MaxSource,
// MaxNesting or MaxRedeclarations, or nil. It runs in time linear in len(src) and constant
// stack.
func CheckLimits(src string) *LimitError {
	if len(src) > MaxSource {
		return &LimitError{Offset: 0, Message: fmt.Sprintf("the file is %d bytes; files over %d bytes are not parsed", len(src), MaxSource)}
	}
	return CheckCode(src)
}

// CheckNesting reports the first token where the nesting of src exceeds
// max, or nil.
//
// The nesting at a token is its bracket depth plus, for every open
// bracket level, the chain tokens (see isChain) seen at that level since
// the statement or list element began. A ';' or ','
// ends a statement or element; so does a line break (or a closing '}')
// between a value and a token that starts a statement, the way automatic
// semicolon insertion reads it. A count can only over-estimate the real
// nesting, never miss it: a chain of nested constructs never has two
// values in a row.
func CheckNesting(src string, max int) *LimitError {
	s := NewScanner(src)
	// chain[d] counts chain tokens at bracket level d; ctrl[d] tells a
	// level opened by the parenthesis of if/for/while/with/switch/catch.
	chain := make([]int32, 1, 64)
	ctrl := make([]bool, 1, 64)
	sum := 0
	depth := 0
	var prev Token
	prevCtrlClose := false // prev is the ')' of a control statement
	for {
		t := s.Next()
		if t.Kind == EOF {
			return nil
		}
		nd := s.depth
		// Leave closed levels (a mismatched closer changes nothing).
		closedCtrl := nd < depth && ctrl[depth]
		for depth > nd {
			sum -= int(chain[depth])
			chain, ctrl = chain[:depth], ctrl[:depth]
			depth--
		}
		if t.Kind == TemplateHead && src[t.Start] == '}' && depth > 0 {
			// }…${ closes one substitution and opens the next.
			sum -= int(chain[depth])
			chain[depth] = 0
		}
		lvl := depth // an opener belongs to the level around it
		// Statement boundaries at this level.
		switch {
		case t.Kind == Punct && (src[t.Start] == ';' || src[t.Start] == ','):
			sum -= int(chain[lvl])
			chain[lvl] = 0
		case t.Kind == Ident && (t.Is(src, "case") || t.Is(src, "default")):
			sum -= int(chain[lvl])
			chain[lvl] = 0
		case (t.NL || prev.Kind == Punct && src[prev.Start] == '}') &&
			valueEnd(src, prev, prevCtrlClose) && statementStart(src, t):
			sum -= int(chain[lvl])
			chain[lvl] = 0
		}
		if isChain(src, t, prev, prevCtrlClose) {
			chain[lvl]++
			sum++
		}
		// Enter the level this token opens.
		for depth < nd {
			opensCtrl := t.Kind == Punct && src[t.Start] == '(' && prev.Kind == Ident && controlKeyword(prev.Text(src))
			chain = append(chain, 0)
			ctrl = append(ctrl, opensCtrl)
			depth++
		}
		if depth+sum > max {
			return &LimitError{Offset: int(t.Start), Message: fmt.Sprintf("the code nests more than %d levels deep here (brackets, or operators, member accesses and calls in one statement); it is not parsed: split it up", max)}
		}
		prev, prevCtrlClose = t, closedCtrl
	}
}

func controlKeyword(w string) bool {
	switch w {
	case "if", "for", "while", "with", "switch", "catch":
		return true
	}
	return false
}

// chainKeyword reports the keywords that begin a construct nesting
// another without brackets.
func chainKeyword(w string) bool {
	switch w {
	case "typeof", "void", "delete", "await", "new", "yield", "if", "for", "while", "with", "do",
		"keyof", "infer", "readonly", "unique", "asserts":
		return true
	}
	return false
}

// operatorKeyword reports keywords that cannot end a value.
func operatorKeyword(w string) bool {
	if chainKeyword(w) {
		return true
	}
	switch w {
	case "in", "instanceof", "of", "as", "satisfies", "return", "throw", "case", "else", "extends",
		"export", "import", "let", "const", "var", "async", "function", "class", "is", "default",
		"try", "finally", "switch", "catch", "interface", "type", "enum", "declare", "abstract",
		"implements", "static", "get", "set", "public", "private", "protected", "from":
		return true
	}
	return false
}

// valueEnd reports whether t can end an expression (so that a line break
// after it may end the statement).
func valueEnd(src string, t Token, ctrlClose bool) bool {
	switch t.Kind {
	case Ident:
		return !operatorKeyword(t.Text(src))
	case Number, String, Regex, Private, Template:
		return true
	case Punct:
		switch src[t.Start] {
		case ')':
			return !ctrlClose
		case ']', '}':
			return true
		case '+', '-':
			return t.End-t.Start == 2 // x++
		}
	}
	return false
}

// statementStart reports whether t starts a new statement after a value
// (it cannot continue the expression before it).
func statementStart(src string, t Token) bool {
	switch t.Kind {
	case Ident:
		switch t.Text(src) {
		case "in", "instanceof", "of", "as", "satisfies", "else", "catch", "finally", "while", "extends", "implements":
			return false
		}
		return true
	case Number, String, Private:
		return true
	}
	return false
}

// isChain reports whether t nests what follows it, or what precedes it,
// one level deeper in a parser's or a tree walker's recursion: a prefix
// operator or keyword, a binary or ternary operator, an assignment, an
// arrow, a member access, a call or an index. A multi-character operator
// counts once.
func isChain(src string, t, prev Token, prevCtrlClose bool) bool {
	switch t.Kind {
	case Ident:
		switch w := t.Text(src); w {
		case "in", "instanceof", "as", "satisfies":
			return true
		default:
			return chainKeyword(w)
		}
	case Punct:
	default:
		return false
	}
	switch c := src[t.Start]; c {
	case ';', ',', ')', ']', '}', '{':
		return false
	case '(', '[':
		return valueEnd(src, prev, prevCtrlClose) // a call or an index
	case '=', '&', '|', '>', '*', '?', '<':
		// The second character of ==, &&, >=, **, ??, =>, <<, …
		if t.End-t.Start == 1 && prev.Kind == Punct && prev.End == t.Start && prev.End-prev.Start == 1 &&
			strings.IndexByte("=&|><*?!+-/%^", src[prev.Start]) >= 0 {
			return false
		}
	}
	return true
}
