package js

import (
	"net/url"
	"strings"

	"github.com/dop251/goja/ast"
	gtoken "github.com/dop251/goja/token"
)

// value is what is known statically about a string expression.
type value struct {
	kind   URLKind
	s      string // the string (Exact) or its known start (Prefix)
	reason string // why the rest is unknown
	lit    int    // page offset of the literal where s starts, -1 if none
}

func unknown(reason string) value { return value{kind: Unknown, reason: reason, lit: -1} }

const maxEvalDepth = 32

// Bounds of what eval builds: a URL longer than maxEvalLen keeps only its
// start (a Prefix), and a page gets maxEvalSteps evaluations in all (a
// template repeating a constant that repeats another is exponential).
const (
	maxEvalLen   = 8 << 10
	maxEvalSteps = 100_000
)

// bounded turns a value whose string is over maxEvalLen into its prefix.
func bounded(v value) value {
	if len(v.s) <= maxEvalLen {
		return v
	}
	return value{kind: Prefix, s: v.s[:maxEvalLen], reason: "the URL is longer than 8 KiB: only its start is checked", lit: v.lit}
}

// eval evaluates a string expression as far as it is static: string and
// template literals, '+', const identifiers (in any enclosing scope),
// new URL(path, base), String(x), x.toString(), x.href, a.concat(b) and
// conditionals whose branches agree on a prefix.
func (a *analyzer) eval(e ast.Expression, sc *scope, depth int) value {
	if e == nil {
		return unknown("")
	}
	if depth > maxEvalDepth {
		return unknown("the expression is too deeply nested to follow")
	}
	if a.evalSteps++; a.evalSteps > maxEvalSteps {
		return unknown("the page's constants are too large to follow")
	}
	switch x := e.(type) {
	case *ast.StringLiteral:
		return value{kind: Exact, s: x.Value.String(), lit: a.start(x)}
	case *ast.NumberLiteral:
		return value{kind: Exact, s: x.Literal, lit: -1}
	case *ast.TemplateLiteral:
		if x.Tag != nil {
			return unknown("a tagged template is computed at run time")
		}
		v := value{kind: Exact, lit: -1}
		if len(x.Elements) > 0 && x.Elements[0].Parsed != "" {
			v.lit = a.start(x)
		}
		for i, el := range x.Elements {
			v.s += el.Parsed.String()
			if v = bounded(v); v.kind != Exact {
				return v
			}
			if i < len(x.Expressions) {
				sub := a.eval(x.Expressions[i], sc, depth+1)
				if v.s == "" && v.lit < 0 {
					v.lit = sub.lit
				}
				if sub.kind != Exact {
					return a.prefixOf(v, sub, x.Expressions[i])
				}
				v.s += sub.s
				if v = bounded(v); v.kind != Exact {
					return v
				}
			}
		}
		return v
	case *ast.BinaryExpression:
		if x.Operator != gtoken.PLUS {
			return unknown("")
		}
		l := a.eval(x.Left, sc, depth+1)
		if l.kind != Exact {
			return l
		}
		r := a.eval(x.Right, sc, depth+1)
		if r.kind != Exact {
			out := a.prefixOf(l, r, x.Right)
			if l.s == "" && l.lit < 0 {
				out.lit = r.lit
			}
			return out
		}
		l.s += r.s
		if l.lit < 0 && l.s == r.s {
			l.lit = r.lit
		}
		return bounded(l)
	case *ast.Identifier:
		name := x.Name.String()
		b := sc.lookup(name)
		if b == nil {
			return unknown("`" + name + "` is not a constant of this page")
		}
		switch {
		case b.decl == declParam:
			return unknown("`" + name + "` is a parameter")
		case b.decl != declConst || b.destructured || b.init == nil:
			return unknown("`" + name + "` is not a constant")
		case b.evaluating:
			return unknown("`" + name + "` refers to itself")
		}
		b.evaluating = true
		v := a.eval(b.init, b.scope, depth+1)
		b.evaluating = false
		return v
	case *ast.NewExpression:
		id, ok := x.Callee.(*ast.Identifier)
		if !ok || id.Name.String() != "URL" || sc.lookup("URL") != nil || len(x.ArgumentList) == 0 {
			return unknown("")
		}
		p := a.eval(x.ArgumentList[0], sc, depth+1)
		if len(x.ArgumentList) == 1 {
			return p
		}
		base := a.eval(x.ArgumentList[1], sc, depth+1)
		if base.kind != Exact {
			if base.reason == "" {
				base.reason = "the base URL is only known at run time"
			}
			return unknown(base.reason)
		}
		return resolveURL(p, base)
	case *ast.CallExpression:
		switch c := unwrap(x.Callee).(type) {
		case *ast.Identifier:
			if c.Name.String() == "String" && sc.lookup("String") == nil && len(x.ArgumentList) == 1 {
				return a.eval(x.ArgumentList[0], sc, depth+1)
			}
			if b := sc.lookup(c.Name.String()); b != nil {
				return a.evalCall(b, depth)
			}
		case *ast.DotExpression:
			switch c.Identifier.Name.String() {
			case "toString":
				if len(x.ArgumentList) == 0 {
					return a.eval(c.Left, sc, depth+1)
				}
			case "concat":
				v := a.eval(c.Left, sc, depth+1)
				for _, arg := range x.ArgumentList {
					if v.kind != Exact {
						return v
					}
					r := a.eval(arg, sc, depth+1)
					if r.kind != Exact {
						return a.prefixOf(v, r, arg)
					}
					if v = bounded(value{kind: Exact, s: v.s + r.s, lit: v.lit}); v.kind != Exact {
						return v
					}
				}
				return v
			}
		}
		return unknown("")
	case *ast.DotExpression:
		if x.Identifier.Name.String() == "href" && a.isURLObject(x.Left, sc) {
			return a.eval(x.Left, sc, depth+1)
		}
		if v, ok := a.evalProperty(x.Left, x.Identifier.Name.String(), sc, depth); ok {
			return v
		}
		return unknown("")
	case *ast.BracketExpression:
		if k := a.eval(x.Member, sc, depth+1); k.kind == Exact {
			if v, ok := a.evalProperty(x.Left, k.s, sc, depth); ok {
				return v
			}
		}
		return unknown("")
	case *ast.ConditionalExpression:
		l := a.eval(x.Consequent, sc, depth+1)
		r := a.eval(x.Alternate, sc, depth+1)
		if l.kind == Exact && r.kind == Exact && l.s == r.s {
			return l
		}
		if l.kind == Unknown || r.kind == Unknown {
			return unknown("the URL depends on a condition")
		}
		n := 0
		for n < len(l.s) && n < len(r.s) && l.s[n] == r.s[n] {
			n++
		}
		return value{kind: Prefix, s: l.s[:n], reason: "the URL depends on a condition", lit: l.lit}
	}
	return unknown("")
}

// prefixOf turns a known start and an unknown rest into a Prefix value.
func (a *analyzer) prefixOf(known, rest value, restExpr ast.Expression) value {
	reason := rest.reason
	if reason == "" {
		reason = "`" + a.text(a.exprSpan(restExpr)) + "` is only known at run time"
	}
	if rest.kind == Prefix {
		return bounded(value{kind: Prefix, s: known.s + rest.s, reason: reason, lit: known.lit})
	}
	if known.s == "" {
		return value{kind: Unknown, reason: reason, lit: known.lit}
	}
	return value{kind: Prefix, s: known.s, reason: reason, lit: known.lit}
}

// resolveURL resolves new URL(p, base) with net/url, as far as p is known.
func resolveURL(p, base value) value {
	b, err := url.Parse(base.s)
	if err != nil || !b.IsAbs() {
		return unknown("the base URL " + quote(base.s) + " is not absolute")
	}
	switch p.kind {
	case Exact:
		r, err := url.Parse(p.s)
		if err != nil {
			return unknown("the path " + quote(p.s) + " does not parse")
		}
		lit := base.lit
		if r.IsAbs() {
			lit = p.lit
		}
		return value{kind: Exact, s: b.ResolveReference(r).String(), lit: lit}
	case Prefix:
		switch {
		case strings.Contains(p.s, "://"):
			return p
		case strings.HasPrefix(p.s, "/") && !strings.HasPrefix(p.s, "//"):
			cut := strings.IndexAny(p.s, "?#%")
			known := p.s
			if cut >= 0 {
				known = p.s[:cut]
			}
			r, err := url.Parse(known)
			if err != nil {
				return unknown(p.reason)
			}
			return value{kind: Prefix, s: b.ResolveReference(r).String(), reason: p.reason, lit: base.lit}
		}
	}
	reason := p.reason
	if reason == "" {
		reason = "the path is only known at run time"
	}
	return unknown(reason)
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return "\"" + s + "\""
}

// evalCall evaluates a call of a page function from what it returns
// (parameters unknown): `function coverUrl(id) { return "https://…/" +
// id }` gives the prefix "https://…/". Several returns give their common
// prefix.
func (a *analyzer) evalCall(b *binding, depth int) value {
	var params *ast.ParameterList
	var body ast.ConciseBody
	switch {
	case b.fn != nil:
		params, body = b.fn.ParameterList, b.fn.Body
	case b.decl == declConst && !b.destructured && b.init != nil:
		switch f := b.init.(type) {
		case *ast.FunctionLiteral:
			params, body = f.ParameterList, f.Body
		case *ast.ArrowFunctionLiteral:
			params, body = f.ParameterList, f.Body
		}
	}
	if body == nil || b.evaluating {
		return unknown("")
	}
	b.evaluating = true
	defer func() { b.evaluating = false }()
	fs := newScope(b.scope)
	fs.declare("arguments", &binding{decl: declParam})
	a.declareParams(params, fs)
	var results []value
	switch x := body.(type) {
	case *ast.ExpressionBody:
		results = append(results, a.eval(x.Expression, fs, depth+1))
	case *ast.BlockStatement:
		a.declareList(x.List, fs)
		var rets []ast.Expression
		collectReturns(x.List, &rets)
		for _, r := range rets {
			results = append(results, a.eval(r, fs, depth+1))
		}
	}
	if len(results) == 0 {
		return unknown("")
	}
	v := results[0]
	for _, r := range results[1:] {
		if v.kind == Exact && r.kind == Exact && v.s == r.s {
			continue
		}
		if v.kind == Unknown || r.kind == Unknown {
			return unknown(firstReason(v, r))
		}
		n := 0
		for n < len(v.s) && n < len(r.s) && v.s[n] == r.s[n] {
			n++
		}
		v = value{kind: Prefix, s: v.s[:n], reason: "the function returns different URLs", lit: v.lit}
	}
	return v
}

func firstReason(vs ...value) string {
	for _, v := range vs {
		if v.kind == Unknown && v.reason != "" {
			return v.reason
		}
	}
	return ""
}

// collectReturns gathers the arguments of the return statements of a
// function body, not descending into nested functions. A bare return
// counts as an unknown value (nil).
func collectReturns(list []ast.Statement, out *[]ast.Expression) {
	for _, s := range list {
		collectReturn(s, out)
	}
}

func collectReturn(s ast.Statement, out *[]ast.Expression) {
	switch x := s.(type) {
	case *ast.ReturnStatement:
		*out = append(*out, x.Argument)
	case *ast.BlockStatement:
		collectReturns(x.List, out)
	case *ast.IfStatement:
		collectReturn(x.Consequent, out)
		if x.Alternate != nil {
			collectReturn(x.Alternate, out)
		}
	case *ast.TryStatement:
		if x.Body != nil {
			collectReturns(x.Body.List, out)
		}
		if x.Catch != nil && x.Catch.Body != nil {
			collectReturns(x.Catch.Body.List, out)
		}
		if x.Finally != nil {
			collectReturns(x.Finally.List, out)
		}
	case *ast.ForStatement:
		collectReturn(x.Body, out)
	case *ast.ForInStatement:
		collectReturn(x.Body, out)
	case *ast.ForOfStatement:
		collectReturn(x.Body, out)
	case *ast.WhileStatement:
		collectReturn(x.Body, out)
	case *ast.DoWhileStatement:
		collectReturn(x.Body, out)
	case *ast.LabelledStatement:
		collectReturn(x.Statement, out)
	case *ast.SwitchStatement:
		for _, c := range x.Body {
			collectReturns(c.Consequent, out)
		}
	}
}

// isURLObject reports whether e is new URL(…) or a const bound to one.
func (a *analyzer) isURLObject(e ast.Expression, sc *scope) bool {
	switch x := unwrap(e).(type) {
	case *ast.NewExpression:
		id, ok := x.Callee.(*ast.Identifier)
		return ok && id.Name.String() == "URL" && sc.lookup("URL") == nil
	case *ast.Identifier:
		b := sc.lookup(x.Name.String())
		return b != nil && b.decl == declConst && !b.destructured && b.init != nil && !b.evaluating && a.isURLObject(b.init, b.scope)
	}
	return false
}

// evalProperty reads key from a const object literal (CONFIG.api where
// const CONFIG = { api: "https://…" }), nested ones included. The object
// may be mutated at run time: only const bindings are followed, and the
// last property of that name wins, as in JavaScript.
func (a *analyzer) evalProperty(obj ast.Expression, key string, sc *scope, depth int) (value, bool) {
	if depth > maxEvalDepth {
		return value{}, false
	}
	var lit *ast.ObjectLiteral
	var litScope *scope
	switch o := unwrap(obj).(type) {
	case *ast.Identifier:
		b := sc.lookup(o.Name.String())
		if b == nil || b.decl != declConst || b.destructured || b.init == nil || b.evaluating {
			return value{}, false
		}
		l, ok := unwrap(b.init).(*ast.ObjectLiteral)
		if !ok {
			return value{}, false
		}
		lit, litScope = l, b.scope
		b.evaluating = true
		defer func() { b.evaluating = false }()
	case *ast.DotExpression, *ast.BracketExpression: // CONFIG.urls.api, CONFIG["urls"].api
		var left ast.Expression
		var name string
		if d, isDot := o.(*ast.DotExpression); isDot {
			left, name = d.Left, d.Identifier.Name.String()
		} else {
			br := o.(*ast.BracketExpression)
			k := a.eval(br.Member, sc, depth+1)
			if k.kind != Exact {
				return value{}, false
			}
			left, name = br.Left, k.s
		}
		inner, ok := a.propertyExpr(left, name, sc, depth+1)
		if !ok {
			return value{}, false
		}
		l, ok := unwrap(inner.e).(*ast.ObjectLiteral)
		if !ok {
			return value{}, false
		}
		lit, litScope = l, inner.sc
	default:
		return value{}, false
	}
	e, ok := a.findProperty(lit, key, litScope, depth)
	if !ok {
		return value{}, false
	}
	return a.eval(e, litScope, depth+1), true
}

type scopedExpr struct {
	e  ast.Expression
	sc *scope
}

// propertyExpr returns the expression of obj.key when obj is a const
// object literal.
func (a *analyzer) propertyExpr(obj ast.Expression, key string, sc *scope, depth int) (scopedExpr, bool) {
	if depth > maxEvalDepth {
		return scopedExpr{}, false
	}
	id, ok := unwrap(obj).(*ast.Identifier)
	if !ok {
		return scopedExpr{}, false
	}
	b := sc.lookup(id.Name.String())
	if b == nil || b.decl != declConst || b.destructured || b.init == nil {
		return scopedExpr{}, false
	}
	l, ok := unwrap(b.init).(*ast.ObjectLiteral)
	if !ok {
		return scopedExpr{}, false
	}
	e, ok := a.findProperty(l, key, b.scope, depth)
	return scopedExpr{e, b.scope}, ok
}

// findProperty returns the value of the last property named key, and
// false when a spread or a computed key after it could replace it.
func (a *analyzer) findProperty(o *ast.ObjectLiteral, key string, sc *scope, depth int) (ast.Expression, bool) {
	var found ast.Expression
	for _, p := range o.Value {
		switch q := p.(type) {
		case *ast.PropertyKeyed:
			k, ok := propKey(q.Key)
			if q.Computed {
				v := a.eval(q.Key, sc, depth+1)
				if v.kind != Exact {
					found = nil // may be key
					continue
				}
				k, ok = v.s, true
			}
			if ok && k == key {
				found = nil
				if q.Kind == ast.PropertyKindValue {
					found = q.Value
				}
			}
		case *ast.PropertyShort:
			if q.Name.Name.String() == key {
				found = &q.Name
			}
		case *ast.SpreadElement:
			found = nil // may hold key
		}
	}
	return found, found != nil
}
