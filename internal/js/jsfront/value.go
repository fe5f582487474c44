package jsfront

import "github.com/dop251/goja/ast"

// Kind says how much of a string value is known statically.
type Kind int

const (
	// Unknown: nothing usable is known (Reason says why).
	Unknown Kind = iota
	// Prefix: S is a known start; the rest is computed at run time.
	Prefix
	// Exact: S is the whole string.
	Exact
)

func (k Kind) String() string {
	switch k {
	case Exact:
		return "exact"
	case Prefix:
		return "prefix"
	}
	return "unknown"
}

// Value is one string an expression may hold.
type Value struct {
	Kind   Kind
	S      string // the string (Exact) or its known start (Prefix)
	Reason string // for Prefix/Unknown: why the rest is unknown ("" when no reason is known)
	Lit    int    // the Source offset of the literal S starts with, -1 if none
	// Undefined is set (with Kind Unknown) for undefined or null.
	Undefined bool
}

const maxEvalDepth = 48

// Values evaluates e in sc to every string it may hold (at least one).
// A non-string alternative (an object, undefined) is Unknown with a
// reason.
func (a *Model) Values(e ast.Expression, sc *Scope) []Value {
	a.es = evalState{}
	set := a.set(e, sc, 0)
	out := make([]Value, 0, len(set))
	for _, v := range set {
		out = append(out, single(v))
	}
	return out
}

// Eval evaluates e when it has one static value: Unknown when it has
// several or none.
func (a *Model) Eval(e ast.Expression, sc *Scope) Value {
	a.es = evalState{}
	s := a.set(e, sc, 0)
	if len(s) != 1 {
		return Value{Kind: Unknown, Lit: -1}
	}
	return single(s[0])
}

// String is the string e always holds, ok false when it is not one
// known string.
func (a *Model) String(e ast.Expression, sc *Scope) (string, bool) {
	v := a.Eval(e, sc)
	return v.S, v.Kind == Exact
}

// Object is the object literal e always holds (through names, Object.freeze,
// members of constant objects), nil when it is not one known object
// literal.
func (a *Model) Object(e ast.Expression, sc *Scope) *ast.ObjectLiteral {
	a.es = evalState{}
	s := a.set(e, sc, 0)
	if len(s) != 1 || s[0].k != vObj {
		return nil
	}
	o, _ := s[0].node.(*ast.ObjectLiteral)
	return o
}

// Member evaluates e[key] in sc: every string it may hold (Undefined
// where the object has no such property).
func (a *Model) Member(e ast.Expression, key string, sc *Scope) []Value {
	a.es = evalState{}
	set := a.member(a.set(e, sc, 0), vset{str(key, -1)}, 0)
	out := make([]Value, 0, len(set))
	for _, v := range set {
		out = append(out, single(v))
	}
	return out
}

func single(v av) Value {
	switch v.k {
	case vStr:
		return Value{Kind: Exact, S: v.s, Lit: v.lit}
	case vPre:
		return Value{Kind: Prefix, S: v.s, Reason: v.reason, Lit: v.lit}
	case vUndef:
		return Value{Kind: Unknown, Reason: "the value may be undefined", Lit: -1, Undefined: true}
	case vUnk:
		return Value{Kind: Unknown, Reason: v.reason, Lit: -1}
	}
	return Value{Kind: Unknown, Lit: -1}
}
