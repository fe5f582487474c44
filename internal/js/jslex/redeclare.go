package jslex

import "fmt"

// MaxRedeclarations bounds how often one name is declared in one scope
// when one of the declarations is a const, let or class. Valid code
// declares such a name once; esbuild reports every further declaration
// with a note pointing back at the first one, and finding that note's line
// rescans the text, so tens of thousands of them take minutes.
const MaxRedeclarations = 64

// CheckCode reports the first place where src nests deeper than
// MaxNesting or declares a name more than MaxRedeclarations times in one
// scope, or nil. Unlike CheckLimits it does not look at the size.
func CheckCode(src string) *LimitError {
	if e := CheckNesting(src, MaxNesting); e != nil {
		return e
	}
	return CheckRedeclarations(src, MaxRedeclarations)
}

// CheckRedeclarations reports the declaration where a name is declared
// more than max times in one scope, one of them with const, let or class,
// or nil. A scope is approximated by the innermost bracket (a block, a
// function's body, a for statement's head), which can only split a real
// scope, never merge two. It runs in linear time and constant stack.
func CheckRedeclarations(src string, max int) *LimitError {
	type key struct {
		scope int32
		name  string
	}
	type count struct{ total, lexical int32 }
	counts := map[key]*count{}
	scopes := []int32{0} // scopes[d]: the scope id of bracket depth d
	next := int32(1)
	s := NewScanner(src)
	var prev, kw Token // kw: the declaring keyword just before, if any
	for {
		t := s.Next()
		if t.Kind == EOF {
			return nil
		}
		if kw.Kind == Ident && t.Kind == Ident && !isKeyword(src, t) {
			d := int(kw.Depth)
			for len(scopes) <= d {
				scopes = append(scopes, 0)
			}
			k := key{scopes[d], t.Text(src)}
			c := counts[k]
			if c == nil {
				c = &count{}
				counts[k] = c
			}
			c.total++
			if !kw.Is(src, "var") && !kw.Is(src, "function") {
				c.lexical++
			}
			if c.total > int32(max) && c.lexical > 0 {
				return &LimitError{Offset: int(t.Start), Message: fmt.Sprintf(
					"%q is declared %d times in one scope; a name declared with const, let or class can be declared only once, and files with over %d declarations of one name in a scope are not parsed",
					k.name, c.total, max)}
			}
		}
		kw = Token{}
		if t.Kind == Ident && !(prev.Kind == Punct && (prev.Is(src, ".") || prev.Is(src, "?."))) {
			switch t.Text(src) {
			case "const", "let", "var", "class", "function":
				kw = t
			}
		}
		if Bracket(src, t) > 0 {
			d := int(t.Depth) + 1
			for len(scopes) <= d {
				scopes = append(scopes, 0)
			}
			scopes[d] = next
			next++
		}
		prev = t
	}
}

// isKeyword reports the words that can follow a declaring keyword without
// being a declared name (let of, let in, class extends…).
func isKeyword(src string, t Token) bool {
	switch t.Text(src) {
	case "of", "in", "extends", "instanceof", "await", "yield":
		return true
	}
	return false
}
