package js

import (
	"github.com/dop251/goja/ast"
)

// value is a single static answer about a string expression, for the
// places that need one (header names, methods, host object keys): the
// value set of values.go when it has exactly one alternative.
type value struct {
	kind   URLKind
	s      string // the string (Exact) or its known start (Prefix)
	reason string // why the rest is unknown
	lit    int    // page offset of the literal where s starts, -1 if none
}

func unknown(reason string) value { return value{kind: Unknown, reason: reason, lit: -1} }

const maxEvalDepth = 48

// eval evaluates e when it has one static value.
func (a *analyzer) eval(e ast.Expression, sc *scope, depth int) value {
	if depth == 0 {
		a.es = evalState{}
	}
	s := a.set(e, sc, depth)
	if len(s) != 1 {
		return unknown("")
	}
	return single(s[0])
}

func single(v av) value {
	switch v.k {
	case vStr:
		return value{kind: Exact, s: v.s, lit: v.lit}
	case vPre:
		return value{kind: Prefix, s: v.s, reason: v.reason, lit: v.lit}
	case vUndef:
		return value{kind: Unknown, reason: "the URL may be undefined", lit: -1}
	case vUnk:
		return unknown(v.reason)
	}
	return unknown("")
}

// pendingURL is the URL argument of an http.fetch, evaluated once the
// walk has seen every call site of the bundle.
type pendingURL struct {
	call int // index in page.Calls
	e    ast.Expression
	sc   *scope
}

// resolveURLs evaluates every pending fetch URL.
func (a *analyzer) resolveURLs() {
	a.walking = false
	if b := a.defaultBinding; b != nil { // the tool's entry: its parameter is the input
		if b.fn != nil {
			a.entryFn = b.fn
		} else if f := a.fns[unwrap(b.init)]; f != nil {
			a.entryFn = f.node
		}
	}
	for _, p := range a.pending {
		a.page.Calls[p.call].URL = a.urlArg(p.e, p.sc)
	}
}

func (a *analyzer) urlArg(e ast.Expression, sc *scope) *URLArg {
	a.es = evalState{}
	set := a.set(e, sc, 0)
	u := &URLArg{Span: a.exprSpan(e)}
	for _, v := range set {
		one := single(v)
		uv := URLValue{Kind: one.kind, Value: one.s, Reason: one.reason}
		if one.lit >= 0 {
			uv.Lit = Span{one.lit, tokenEnd(a.ts, one.lit)}
		}
		if uv.Kind != Exact && uv.Reason == "" {
			uv.Reason = "`" + a.text(u.Span) + "` is only known at run time"
		}
		u.Values = append(u.Values, uv)
	}
	if len(u.Values) == 0 {
		u.Values = []URLValue{{Kind: Unknown, Reason: "`" + a.text(u.Span) + "` is only known at run time"}}
	}
	first := u.Values[0]
	u.Kind, u.Value, u.Reason, u.Lit = first.Kind, first.Value, first.Reason, first.Lit
	if len(u.Values) > 1 {
		// The summary of a set: its common start.
		u.Kind, u.Reason = Prefix, "the URL is one of several values"
		common := first.Value
		for _, v := range u.Values[1:] {
			if v.Kind == Unknown {
				u.Kind, common = Unknown, ""
				u.Reason = v.Reason
				break
			}
			n := 0
			for n < len(common) && n < len(v.Value) && common[n] == v.Value[n] {
				n++
			}
			common = common[:n]
		}
		if first.Kind == Unknown {
			u.Kind, common, u.Reason = Unknown, "", first.Reason
		}
		u.Value = common
		if common == "" {
			u.Kind = Unknown
		}
	}
	return u
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return "\"" + s + "\""
}
