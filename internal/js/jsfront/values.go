package jsfront

import (
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja/ast"
	gtoken "github.com/dop251/goja/token"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// The value-set evaluator: what a URL expression may hold, as a finite
// set of alternatives (an exact string, a known start, or unknown), or
// the objects, arrays, functions and classes it is built from.
//
// It is an abstract interpreter over the whole bundle (the page and
// every file it imports share one scope), context-insensitive: a
// parameter holds the union of the arguments of every call site of its
// function (found by evaluating every callee of the bundle), a variable
// the union of its initializer and every assignment to it, this.x the
// union of the class's field initializer and every this.x = … in it.
// When a function may be called from where the analysis cannot see (the
// tool's own entry point, a callback handed to unknown code), its
// parameters are unknown.
//
// Bounds: a set holds at most maxSet alternatives (beyond, URLs collapse
// to their scheme and host, then to unknown), a string at most maxStr
// bytes, recursion at most maxEvalDepth levels, and one URL at most
// maxSteps evaluation steps; past any bound the answer is unknown (a
// string over maxStr keeps its start), never a wrong single value.

const (
	maxSet   = 32
	maxStr   = 64 << 10
	maxSteps = 20000
)

type vk uint8

const (
	vStr   vk = iota // s is the whole string
	vPre             // s is a known start
	vUnk             // nothing known (reason)
	vUndef           // undefined or null
	vObj             // an object literal (node, sc)
	vArr             // an array: an array literal (node, sc) or items
	vFn              // a function (fn); this is the class/object it is a method of
	vClass           // a class (cls)
	vInst            // an instance of cls
)

// av is one alternative.
type av struct {
	k      vk
	s      string
	reason string
	lit    int // offset in a.ts of the literal s starts with, -1
	node   ast.Expression
	sc     *Scope
	items  []vset
	fn     *fnInfo
	cls    *classInfo
	owner  *Binding // the binding an object literal is the initializer of
	this   *thisCtx
	wide   bool // from a set that outgrew maxSet
}

type vset []av

func unk(reason string) vset   { return vset{{k: vUnk, reason: reason, lit: -1}} }
func str(s string, lit int) av { return av{k: vStr, s: s, lit: lit} }

// add appends alternatives, dropping duplicates and applying the bound.
// Once a set has collapsed (see collapse), what joins it collapses too.
func (s vset) add(more ...av) vset {
	wide := false
	for _, w := range s {
		if w.wide && w.k == vUnk {
			return s // already "anything": nothing more to learn
		}
		wide = wide || w.wide
	}
	for _, v := range more {
		if wide && !v.wide {
			v = widen(v)
		}
		if (v.k == vStr || v.k == vPre) && len(v.s) > maxStr {
			// Keep the start: the host of a URL stays known (and checked).
			cut := maxStr
			for cut > 0 && !utf8.RuneStart(v.s[cut]) {
				cut--
			}
			v = av{k: vPre, s: v.s[:cut], reason: "the string is longer than 64 KiB: only its start is checked", lit: v.lit}
		}
		dup := false
		for _, w := range s {
			if w.k == v.k && w.s == v.s && w.node == v.node && w.fn == v.fn && w.cls == v.cls && (v.k != vUnk || w.reason == v.reason) && w.items == nil && v.items == nil {
				dup = true
				break
			}
		}
		if !dup {
			s = append(s, v)
		}
	}
	if len(s) > maxSet {
		return collapse(s)
	}
	return s
}

// widen turns a string into the scheme and host of its URL (a known
// start), anything else into unknown.
func widen(v av) av {
	if v.k == vStr || v.k == vPre {
		if i := strings.Index(v.s, "://"); i > 0 {
			rest := v.s[i+3:]
			if j := strings.IndexAny(rest, "/?#"); j >= 0 {
				return av{k: vPre, s: v.s[:i+3+j+1], lit: v.lit, reason: "it is one of more than 32 URLs", wide: true}
			}
		}
	}
	return av{k: vUnk, reason: "more than 32 different values are possible", lit: -1, wide: true}
}

// collapse shrinks an oversized set: every URL to its scheme and host,
// then, if still too many, unknown.
func collapse(s vset) vset {
	var out vset
	for _, v := range s {
		v = widen(v)
		dup := false
		for _, w := range out {
			if w.k == v.k && w.s == v.s && w.node == v.node && w.fn == v.fn && w.cls == v.cls {
				dup = true
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	if len(out) > maxSet {
		return vset{{k: vUnk, reason: "more than 32 different values are possible", lit: -1, wide: true}}
	}
	return out
}

// fnInfo is a function of the bundle: where its body's names live, what
// it returns, and whether something the analysis cannot see may call it.
type fnInfo struct {
	node   ast.Expression // *ast.FunctionLiteral or *ast.ArrowFunctionLiteral
	params *ast.ParameterList
	inner  *Scope
	rets   []scopedExpr
	// argOf is set for a function literal written as an argument of a
	// call (a callback): that call and the argument's index.
	argOf      *site
	bind       *Binding // the name it is declared under, nil when none
	member     string   // the property name of a method (class or object literal)
	retMemo    vset
	ctor       *classInfo // set for a class constructor
	argIndex   int32
	evaluating bool
}

type classInfo struct {
	node    *ast.ClassLiteral
	sc      *Scope // the scope of the class body (this = the instance)
	ctor    *fnInfo
	assigns map[string][]scopedExpr // this.x = … anywhere in the class
	thisSet vset                    // thisInstances, once worked out
}

// thisCtx is what `this` is in a scope: an instance of cls, an object
// literal, or unknown (both nil).
type thisCtx struct {
	cls *classInfo
	obj *ast.ObjectLiteral
	sc  *Scope
}

// site is one call or new expression of the bundle, with its scope.
type site struct {
	// call is the *ast.CallExpression (for a tagged template, one made
	// for it) or *ast.NewExpression.
	call ast.Expression
	sc   *Scope
	// targets are the functions the callee may be, worked out once.
	targets []*fnInfo
	state   uint8
}

func (s *site) isNew() bool {
	_, ok := s.call.(*ast.NewExpression)
	return ok
}

func (s *site) callee() ast.Expression {
	if n, ok := s.call.(*ast.NewExpression); ok {
		return n.Callee
	}
	return s.call.(*ast.CallExpression).Callee
}

func (s *site) args() []ast.Expression {
	if n, ok := s.call.(*ast.NewExpression); ok {
		return n.ArgumentList
	}
	return s.call.(*ast.CallExpression).ArgumentList
}

// evaluator is the per-URL state: a step budget.
// evalState is the per-URL state: a step budget, and a count of the
// answers cut short (by a bound or a cycle), so that only complete
// answers are memoized.
type evalState struct{ steps, cuts int }

// maxPageSteps bounds the work on one page, all URLs together: past it,
// the remaining URLs are unknown (a hostile page cannot make the
// analysis slow).
const maxPageSteps = 400000

func (a *Model) cut(reason string) vset {
	a.es.cuts++
	return unk(reason)
}

// set evaluates e to a value set.
func (a *Model) set(e ast.Expression, sc *Scope, depth int) vset {
	if e == nil {
		return vset{{k: vUndef, lit: -1}}
	}
	if depth > maxEvalDepth {
		return a.cut("the value is built too deeply to follow")
	}
	a.es.steps++
	a.pageSteps++
	if a.es.steps > maxSteps || a.pageSteps > maxPageSteps {
		return a.cut("the value takes too many steps to follow")
	}
	switch x := e.(type) {
	case *ast.StringLiteral:
		return vset{str(x.Value.String(), a.jsStart(x))}
	case *ast.NumberLiteral:
		return vset{str(numString(x), -1)}
	case *ast.BooleanLiteral:
		return vset{str(strconv.FormatBool(x.Value), -1)}
	case *ast.NullLiteral:
		return vset{{k: vUndef, lit: -1}}
	case *ast.TemplateLiteral:
		if x.Tag != nil {
			return a.taggedTemplate(x, sc, depth)
		}
		out := vset{str("", -1)}
		if len(x.Elements) > 0 && x.Elements[0].Parsed != "" {
			out[0].lit = a.jsStart(x)
		}
		for i, el := range x.Elements {
			out = concat(out, vset{str(el.Parsed.String(), -1)}, "")
			if i < len(x.Expressions) {
				out = concat(out, a.set(x.Expressions[i], sc, depth+1), a.exprText(x.Expressions[i]))
			}
		}
		return out
	case *ast.BinaryExpression:
		switch x.Operator {
		case gtoken.PLUS:
			return concat(a.set(x.Left, sc, depth+1), a.set(x.Right, sc, depth+1), a.exprText(x.Right))
		case gtoken.COALESCE, gtoken.LOGICAL_OR:
			l := a.set(x.Left, sc, depth+1)
			var out vset
			maybeNull := false
			for _, v := range l {
				if v.k == vUndef || (x.Operator == gtoken.LOGICAL_OR && v.k == vStr && v.s == "") {
					maybeNull = true
					continue
				}
				if v.k == vUnk {
					maybeNull = true
				}
				out = out.add(v)
			}
			if maybeNull {
				out = out.add(a.set(x.Right, sc, depth+1)...)
			}
			return out
		case gtoken.LOGICAL_AND:
			return a.set(x.Right, sc, depth+1)
		}
		return unk("")
	case *ast.ConditionalExpression:
		return a.set(x.Consequent, sc, depth+1).add(a.set(x.Alternate, sc, depth+1)...)
	case *ast.AwaitExpression:
		return a.set(x.Argument, sc, depth+1)
	case *ast.SequenceExpression:
		if len(x.Sequence) > 0 {
			return a.set(x.Sequence[len(x.Sequence)-1], sc, depth+1)
		}
	case *ast.OptionalChain:
		return a.set(x.Expression, sc, depth+1)
	case *ast.Optional:
		return a.set(x.Expression, sc, depth+1)
	case *ast.Identifier:
		name := x.Name.String()
		if name == "undefined" && sc.lookup(name) == nil {
			return vset{{k: vUndef, lit: -1}}
		}
		b := sc.lookup(name)
		if b == nil {
			return unk("`" + name + "` is not defined in the page or the files it imports")
		}
		return a.bindingSetAt(b, name, depth, int(x.Idx0()), sc.unit)
	case *ast.ThisExpression:
		for s := sc; s != nil; s = s.parent {
			if s.this != nil {
				switch {
				case s.this.cls != nil:
					return a.thisInstances(s.this.cls, depth)
				case s.this.obj != nil:
					return vset{{k: vObj, node: s.this.obj, sc: s.this.sc, lit: -1}}
				}
				break
			}
		}
		return unk("`this` is only known at run time here")
	case *ast.ObjectLiteral:
		return vset{{k: vObj, node: x, sc: sc, lit: -1}}
	case *ast.ArrayLiteral:
		return vset{{k: vArr, node: x, sc: sc, lit: -1}}
	case *ast.FunctionLiteral:
		if f := a.fns[x]; f != nil {
			return vset{{k: vFn, fn: f, lit: -1}}
		}
	case *ast.ArrowFunctionLiteral:
		if f := a.fns[x]; f != nil {
			return vset{{k: vFn, fn: f, lit: -1}}
		}
	case *ast.ClassLiteral:
		if c := a.classes[x]; c != nil {
			return vset{{k: vClass, cls: c, lit: -1}}
		}
	case *ast.NewExpression:
		return a.newSet(x, sc, depth)
	case *ast.CallExpression:
		return a.callSet(x, sc, depth)
	case *ast.DotExpression:
		name := x.Identifier.Name.String()
		return a.member(a.set(x.Left, sc, depth+1), vset{str(name, -1)}, depth)
	case *ast.BracketExpression:
		return a.member(a.set(x.Left, sc, depth+1), a.set(x.Member, sc, depth+1), depth)
	case *ast.AssignExpression:
		return a.set(x.Right, sc, depth+1)
	}
	return unk("")
}

func numString(x *ast.NumberLiteral) string {
	switch v := x.Value.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return jslex.NumberString(v)
	}
	return x.Literal
}

// concat is l + r over every pair of alternatives.
func concat(l, r vset, rText string) vset {
	var out vset
	for _, x := range l {
		for _, y := range r {
			out = out.add(concat1(x, y, rText))
			if len(out) == 1 && out[0].k == vUnk && len(l)*len(r) > maxSet {
				return out
			}
		}
	}
	return out
}

func concat1(x, y av, rText string) av {
	x = asString(x)
	y = asString(y)
	switch x.k {
	case vStr:
		switch y.k {
		case vStr:
			lit := x.lit
			if lit < 0 && x.s == "" {
				lit = y.lit
			}
			return av{k: vStr, s: x.s + y.s, lit: lit}
		case vPre:
			lit := x.lit
			if lit < 0 && x.s == "" {
				lit = y.lit
			}
			return av{k: vPre, s: x.s + y.s, reason: y.reason, lit: lit}
		}
		reason := y.reason
		if reason == "" && rText != "" {
			reason = "`" + rText + "` is only known at run time"
		}
		if x.s == "" {
			return av{k: vUnk, reason: reason, lit: -1}
		}
		return av{k: vPre, s: x.s, reason: reason, lit: x.lit}
	case vPre:
		return x
	}
	return x
}

// asString converts an alternative as JavaScript's + would, as far as
// it is known.
func asString(v av) av {
	switch v.k {
	case vUndef:
		return av{k: vStr, s: "undefined", lit: -1}
	case vObj, vArr, vFn, vClass, vInst:
		return av{k: vUnk, reason: "an object is turned into a string", lit: -1}
	}
	return v
}

// bindingSetAt is what a name may hold where it is read (at offset use,
// in the function unit): an assignment later in the same function, in
// straight-line code (no loop of that function around it), does not
// reach the read, so it is left out (reaching definitions, the simple
// case: a branch before the read still counts).
func (a *Model) bindingSetAt(b *Binding, name string, depth, use int, unit ast.Node) vset {
	as := b.extra().assigns
	// killed: the last assignment before the read, in the same function,
	// that always runs (no branch or loop around it): the init and the
	// assignments before it do not reach the read.
	killed, skip := -1, false
	for i, x := range as {
		if x.sc == nil || x.sc.unit != unit {
			continue
		}
		switch {
		case !x.inLoop && x.pos > use:
			skip = true
		case !x.cond && x.pos < use && (killed < 0 || x.pos > as[killed].pos):
			killed = i
		}
	}
	if !skip && killed < 0 || b.decl == DeclFunc || b.decl == DeclClass || b.decl == DeclParam || b.extra().iterOf != nil {
		return a.bindingSet(b, name, depth)
	}
	reaches := func(x scopedExpr) bool {
		if x.sc == nil || x.sc.unit != unit {
			return true
		}
		if !x.inLoop && x.pos > use {
			return false
		}
		return killed < 0 || x.pos >= as[killed].pos || x.inLoop
	}
	if b.evaluating {
		return a.cut("`" + name + "` depends on itself")
	}
	b.evaluating = true
	defer func() { b.evaluating = false }()
	var out vset
	if killed < 0 && (b.Init() != nil || !anyReaches(as, reaches)) {
		out = a.set(b.Init(), b.scope, depth+1)
		for i := range out {
			if (out[i].k == vObj || out[i].k == vArr) && out[i].owner == nil && !b.destructured {
				out[i].owner = b
			}
		}
		if b.destructured {
			// the keys read: as bindingSet does
			for _, st := range b.extra().outer {
				out = a.member(out, vset{str(st.key, -1)}, depth)
				if st.def != nil {
					out = a.withDefault(out, st.def, b.scope, depth)
				}
			}
			out = a.member(out, vset{str(b.extra().key, -1)}, depth)
			if b.extra().keyDefault != nil {
				out = a.withDefault(out, b.extra().keyDefault, b.scope, depth)
			}
		}
	}
	for _, x := range as {
		if reaches(x) {
			out = out.add(a.set(x.e, x.sc, depth+1)...)
		}
	}
	if b.opaque {
		out = out.add(unk("`" + name + "` is changed in a way the analysis does not follow")...)
	}
	if len(out) == 0 {
		out = unk("")
	}
	return out
}

func anyReaches(as []scopedExpr, reaches func(scopedExpr) bool) bool {
	for _, x := range as {
		if reaches(x) {
			return true
		}
	}
	return false
}

// bindingSet is what a name may hold.
func (a *Model) bindingSet(b *Binding, name string, depth int) vset {
	if b.evaluating {
		return a.cut("`" + name + "` depends on itself")
	}
	if m := b.extra().memo; m != nil {
		return m
	}
	cuts := a.es.cuts
	b.evaluating = true
	defer func() { b.evaluating = false }()
	var out vset
	switch {
	case b.decl == DeclFunc:
		if f := a.fns[b.fnNode()]; f != nil {
			out = vset{{k: vFn, fn: f, lit: -1}}
		} else {
			out = unk("")
		}
	case b.decl == DeclClass:
		if c := a.classes[b.extra().cls]; c != nil {
			out = vset{{k: vClass, cls: c, lit: -1}}
		} else {
			out = unk("")
		}
	case b.decl == DeclParam:
		out = a.paramSet(b, name, depth)
	case b.extra().iterOf != nil:
		for _, v := range a.set(b.extra().iterOf, b.extra().iterSc, depth+1) {
			out = out.add(a.elements(v, depth)...)
		}
		if out == nil {
			out = unk("`" + name + "` takes the values of a list known only at run time")
		}
	default:
		if b.Init() != nil || len(b.extra().assigns) == 0 {
			out = a.set(b.Init(), b.scope, depth+1)
			for i := range out {
				if (out[i].k == vObj || out[i].k == vArr) && out[i].owner == nil && !b.destructured {
					out[i].owner = b
				}
			}
			if b.destructured {
				for _, st := range b.extra().outer {
					out = a.member(out, vset{str(st.key, -1)}, depth)
					if st.def != nil {
						out = a.withDefault(out, st.def, b.scope, depth)
					}
				}
				out = a.member(out, vset{str(b.extra().key, -1)}, depth)
				if b.extra().keyDefault != nil {
					out = a.withDefault(out, b.extra().keyDefault, b.scope, depth)
				}
			}
		}
		for _, as := range b.extra().assigns {
			out = out.add(a.set(as.e, as.sc, depth+1)...)
		}
		if b.opaque {
			out = out.add(unk("`" + name + "` is changed in a way the analysis does not follow")...)
		}
	}
	if len(out) == 0 {
		out = unk("")
	}
	if a.es.cuts == cuts && !a.walking {
		b.setExtra().memo = out
	}
	return out
}

func (b *Binding) fnNode() ast.Expression {
	if f := b.Func(); f != nil {
		return f
	}
	return nil
}

// withDefault replaces the undefined alternatives of s by def.
func (a *Model) withDefault(s vset, def ast.Expression, sc *Scope, depth int) vset {
	var out vset
	hasUndef := false
	for _, v := range s {
		if v.k == vUndef {
			hasUndef = true
			continue
		}
		out = out.add(v)
	}
	if hasUndef {
		out = out.add(a.set(def, sc, depth+1)...)
	}
	return out
}

// paramSet is what a parameter may hold: the union of the arguments of
// every call site of its function.
func (a *Model) paramSet(b *Binding, name string, depth int) vset {
	f := b.owner
	if a.walking {
		return unk("`" + name + "` is a parameter")
	}
	if f == nil {
		return unk("`" + name + "` is a parameter")
	}
	if f.argOf != nil {
		return a.callbackParam(f, b, name, depth)
	}
	sites, complete := a.sitesOf(f, depth)
	if len(sites) == 0 || (f.bind != nil && f.bind.escaped) || (f.member != "" && a.valueMembers[f.member]) {
		if f.node == a.entryFn {
			return unk("`" + name + "` is the tool's input")
		}
		return unk("`" + name + "` is a parameter of a function called from outside what the analysis sees")
	}
	var out vset
	live := 0
	for _, s := range sites {
		if !a.liveSite(s, depth, map[*fnInfo]bool{}) {
			continue // a call nothing of this page runs: not an argument it gets
		}
		live++
		var v vset
		if b.rest {
			v = unk("`" + name + "` is a rest parameter")
		} else if spreadBefore(s.args(), int(b.pidx)) {
			v = unk("the arguments are spread")
		} else if args := s.args(); int(b.pidx) < len(args) {
			v = a.set(args[int(b.pidx)], s.sc, depth+1)
		} else {
			v = vset{{k: vUndef, lit: -1}}
		}
		out = out.add(v...)
	}
	if !complete {
		out = out.add(unk("`" + name + "` is a parameter of a function whose callers could not all be worked out")...)
	}
	if live == 0 && complete {
		return unk("`" + name + "` is a parameter of a function called from outside what the analysis sees")
	}
	return a.paramShape(out, b, depth)
}

// liveSite reports whether a call site may run for this page: it is at
// the top level, in the entry function, in a callback, a method, a
// closure or a function used as a value, or in a named function one of
// whose own call sites may run. A call inside a named function nothing
// of the bundle calls (a lib file's export the page does not use) never
// runs for this page, so its arguments are not values the callee's
// parameters get. seen holds the functions being asked about (a cycle of
// calls among them alone never runs).
func (a *Model) liveSite(s *site, depth int, seen map[*fnInfo]bool) bool {
	if s.sc == nil || s.sc.unit == nil || depth > maxEvalDepth {
		return true
	}
	f := a.fns[s.sc.unit]
	if f == nil || f.node == a.entryFn || f.argOf != nil || f.member != "" || f.ctor != nil || f.bind == nil || f.bind.escaped {
		return true
	}
	if seen[f] {
		return false
	}
	seen[f] = true
	sites, complete := a.sitesOf(f, depth+1)
	if !complete {
		return true
	}
	for _, t := range sites {
		if a.liveSite(t, depth+1, seen) {
			return true
		}
	}
	return false
}

// paramShape applies a parameter's default and destructuring.
func (a *Model) paramShape(v vset, b *Binding, depth int) vset {
	if b.extra().pdef != nil {
		v = a.withDefault(v, b.extra().pdef, b.scope, depth)
	}
	for _, st := range b.extra().outer {
		v = a.member(v, vset{str(st.key, -1)}, depth)
		if st.def != nil {
			v = a.withDefault(v, st.def, b.scope, depth)
		}
	}
	if b.extra().key != "" {
		v = a.member(v, vset{str(b.extra().key, -1)}, depth)
		if b.extra().keyDefault != nil {
			v = a.withDefault(v, b.extra().keyDefault, b.scope, depth)
		}
	}
	return v
}

func spreadBefore(args []ast.Expression, i int) bool {
	for j := 0; j <= i && j < len(args); j++ {
		if _, ok := args[j].(*ast.SpreadElement); ok {
			return true
		}
	}
	return false
}

// callbackParam: a function literal passed to list.map(…) (and the other
// array methods) over a list the analysis knows gets its elements; any
// other callback's parameters are unknown.
func (a *Model) callbackParam(f *fnInfo, b *Binding, name string, depth int) vset {
	s := f.argOf
	d, ok := unwrap(s.callee()).(*ast.DotExpression)
	if !ok || f.argIndex != 0 || b.pidx != 0 || b.rest {
		return unk("`" + name + "` is a parameter of a callback")
	}
	switch d.Identifier.Name.String() {
	case "map", "forEach", "flatMap", "filter", "find", "some", "every":
	default:
		return unk("`" + name + "` is a parameter of a callback")
	}
	var out vset
	for _, v := range a.set(d.Left, s.sc, depth+1) {
		el := a.elements(v, depth)
		if el == nil {
			return unk("`" + name + "` takes the values of a list known only at run time")
		}
		out = out.add(el...)
	}
	if out == nil {
		return unk("`" + name + "` is a parameter of a callback")
	}
	return a.paramShape(out, b, depth)
}

// elements is what the elements of an array may be (nil when unknown).
func (a *Model) elements(v av, depth int) vset {
	if v.k != vArr {
		return nil
	}
	var out vset
	if lit, ok := v.node.(*ast.ArrayLiteral); ok {
		for _, e := range lit.Value {
			if e == nil {
				continue
			}
			if sp, isSpread := e.(*ast.SpreadElement); isSpread {
				for _, w := range a.set(sp.Expression, v.sc, depth+1) {
					el := a.elements(w, depth+1)
					if el == nil {
						return nil
					}
					out = out.add(el...)
				}
				continue
			}
			out = out.add(a.set(e, v.sc, depth+1)...)
		}
		if v.owner != nil && v.owner.opaque {
			return nil
		}
		return out
	}
	for _, it := range v.items {
		out = out.add(it...)
	}
	return out
}

// sitesOf returns the call sites that may call f.
// complete is false when a call site could not be resolved (its callee
// depends on the very parameter being worked out).
func (a *Model) sitesOf(f *fnInfo, depth int) (out []*site, complete bool) {
	complete = true
	for _, s := range a.sites {
		if !mayCall(s, f) {
			continue
		}
		if s.state == 1 {
			complete = false // being resolved: a cycle
			a.es.cuts++
			continue
		}
		if s.state == 0 {
			s.state = 1
			cuts := a.es.cuts
			isNew := s.isNew()
			for _, v := range a.set(s.callee(), s.sc, depth+1) {
				switch {
				case v.k == vFn && !isNew:
					s.targets = append(s.targets, v.fn)
				case v.k == vClass && isNew && v.cls.ctor != nil:
					s.targets = append(s.targets, v.cls.ctor)
				}
			}
			s.state = 2
			if a.es.cuts != cuts {
				// The callee was not followed to the end (a bound, or a
				// cycle through what is being worked out): this answer is
				// incomplete, and the site is resolved again next time.
				complete = false
				s.state, s.targets = 0, nil
				continue
			}
		}
		for _, t := range s.targets {
			if t == f {
				out = append(out, s)
				break
			}
		}
	}
	return out, complete
}

// member is obj[key] over every alternative.
func (a *Model) member(objs, keys vset, depth int) vset {
	var out vset
	for _, o := range objs {
		for _, k := range keys {
			if k.k != vStr {
				out = out.add(a.anyMember(o, depth)...)
				continue
			}
			out = out.add(a.member1(o, k.s, depth)...)
		}
	}
	if out == nil {
		return unk("")
	}
	return out
}

// anyMember is what obj[k] may be for a key known only at run time:
// every value of a record (BASES[input.region]).
func (a *Model) anyMember(o av, depth int) vset {
	switch o.k {
	case vObj:
		lit := o.node.(*ast.ObjectLiteral)
		var out vset
		for _, p := range lit.Value {
			switch q := p.(type) {
			case *ast.PropertyKeyed:
				out = out.add(a.set(q.Value, o.sc, depth+1)...)
			case *ast.PropertyShort:
				out = out.add(a.set(&q.Name, o.sc, depth+1)...)
			default:
				return unk("the object has a spread")
			}
		}
		if o.owner != nil {
			if o.owner.opaque {
				return unk("the object is changed in a way the analysis does not follow")
			}
			for _, as := range o.owner.extra().propAssigns {
				for _, e := range as {
					out = out.add(a.set(e.e, e.sc, depth+1)...)
				}
			}
		}
		return out
	case vArr:
		if el := a.elements(o, depth); el != nil {
			return el
		}
	}
	return unk("the key is only known at run time")
}

func (a *Model) member1(o av, key string, depth int) vset {
	switch o.k {
	case vObj:
		lit := o.node.(*ast.ObjectLiteral)
		var out vset
		if o.owner != nil {
			if o.owner.opaque {
				return unk("the object is changed in a way the analysis does not follow")
			}
			for _, e := range o.owner.extra().propAssigns[key] {
				out = out.add(a.set(e.e, e.sc, depth+1)...)
			}
		}
		e, ok, certain := a.property(lit, key, o.sc, depth)
		switch {
		case ok:
			if fl, isFn := e.(*ast.FunctionLiteral); isFn && a.fns[fl] != nil {
				return out.add(av{k: vFn, fn: a.fns[fl], lit: -1})
			}
			return out.add(a.set(e, o.sc, depth+1)...)
		case certain:
			return out.add(av{k: vUndef, lit: -1})
		}
		return out.add(unk("the object may hold `" + key + "` from a spread")...)
	case vArr:
		if n, err := strconv.Atoi(key); err == nil {
			if lit, ok := o.node.(*ast.ArrayLiteral); ok {
				if n < len(lit.Value) && !spreadBefore(lit.Value, n) {
					return a.set(lit.Value[n], o.sc, depth+1)
				}
			} else if o.node == nil && n < len(o.items) {
				return o.items[n]
			}
		}
	case vInst:
		return a.instMember(o.cls, key, depth)
	case vStr, vPre:
		if key == "href" {
			return vset{o} // a URL object's string form
		}
	case vUndef:
		return vset{{k: vUndef, lit: -1}} // undefined?.x
	case vUnk:
		return unk(o.reason) // input.url: what made input unknown
	}
	return unk("")
}

// property finds key in an object literal: ok when found, certain when
// it is certainly absent (no spread, no unknown computed key).
func (a *Model) property(o *ast.ObjectLiteral, key string, sc *Scope, depth int) (e ast.Expression, ok, certain bool) {
	certain = true
	for _, p := range o.Value {
		switch q := p.(type) {
		case *ast.PropertyKeyed:
			k, isKey := propKey(q.Key)
			if q.Computed {
				v := a.set(q.Key, sc, depth+1)
				if len(v) != 1 || v[0].k != vStr {
					e, ok, certain = nil, false, false
					continue
				}
				k, isKey = v[0].s, true
			}
			if isKey && k == key {
				e, ok, certain = q.Value, true, true
				if q.Kind != ast.PropertyKindValue && q.Kind != ast.PropertyKindMethod {
					e, ok, certain = nil, false, false
				}
			}
		case *ast.PropertyShort:
			if q.Name.Name.String() == key {
				e, ok, certain = &q.Name, true, true
			}
		case *ast.SpreadElement:
			e, ok, certain = nil, false, false
		}
	}
	return e, ok, certain
}

// instMember is what instance.key may be: a method, or the field's
// initializer and every this.key = … of the class.
func (a *Model) instMember(c *classInfo, key string, depth int) vset {
	var out vset
	for _, el := range c.node.Body {
		switch x := el.(type) {
		case *ast.MethodDefinition:
			if k, ok := propKey(x.Key); ok && !x.Computed && !x.Static && k == key && x.Kind == ast.PropertyKindMethod {
				if f := a.fns[x.Body]; f != nil {
					out = out.add(av{k: vFn, fn: f, lit: -1})
				}
			} else if ok && !x.Computed && !x.Static && k == key && x.Kind == ast.PropertyKindGet {
				out = out.add(a.getter(x, depth)...)
			}
		case *ast.FieldDefinition:
			if k, ok := propKey(x.Key); ok && !x.Computed && !x.Static && k == key && x.Initializer != nil {
				out = out.add(a.set(x.Initializer, c.sc, depth+1)...)
			}
		}
	}
	for _, as := range c.assigns[key] {
		out = out.add(a.set(as.e, as.sc, depth+1)...)
	}
	if out == nil {
		if c.node.SuperClass != nil {
			// not the class's own: the base class's, when it is one class
			if base := a.set(c.node.SuperClass, c.sc.parent, depth+1); len(base) == 1 && base[0].k == vClass && base[0].cls != c && depth < maxEvalDepth {
				return a.instMember(base[0].cls, key, depth+1)
			}
			return unk("`" + key + "` may come from the base class")
		}
		return vset{{k: vUndef, lit: -1}}
	}
	return out
}

// getter is what reading a getter gives: its function's return values.
func (a *Model) getter(x *ast.MethodDefinition, depth int) vset {
	if f := a.fns[x.Body]; f != nil {
		return a.returns(f, depth+1)
	}
	return unk("the getter is only known at run time")
}

// thisInstances is what `this` may be in the methods of class c: an
// instance of c, or of any class of the bundle extending it (a base
// class's method reading a member its subclasses define, the template
// method pattern). A class that nothing constructs itself (an abstract
// base) is left out while it has subclasses.
func (a *Model) thisInstances(c *classInfo, depth int) vset {
	if c.thisSet != nil {
		return c.thisSet
	}
	cuts := a.es.cuts
	subs := a.subclasses(c, depth)
	if len(subs) == 0 || a.constructed(c, depth) {
		subs = append([]*classInfo{c}, subs...)
	}
	var out vset
	for _, s := range subs {
		out = out.add(av{k: vInst, cls: s, lit: -1})
	}
	if a.es.cuts == cuts && !a.walking {
		c.thisSet = out
	}
	return out
}

// subclasses are the classes of the bundle extending c, directly or not.
func (a *Model) subclasses(c *classInfo, depth int) []*classInfo {
	var out []*classInfo
	seen := map[*classInfo]bool{c: true}
	queue := []*classInfo{c}
	for len(queue) > 0 && depth < maxEvalDepth {
		base := queue[0]
		queue = queue[1:]
		for _, k := range a.classList() {
			if seen[k] || k.node.SuperClass == nil || k.sc == nil {
				continue
			}
			for _, v := range a.set(k.node.SuperClass, k.sc.parent, depth+1) {
				if v.k == vClass && v.cls == base {
					seen[k] = true
					out = append(out, k)
					queue = append(queue, k)
					break
				}
			}
		}
	}
	return out
}

// classList is the bundle's classes in source order (a stable answer).
func (a *Model) classList() []*classInfo {
	out := make([]*classInfo, 0, len(a.classes))
	for _, c := range a.classes {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].node.Idx0() < out[j].node.Idx0() })
	return out
}

// constructed reports whether some new expression may construct c
// itself: one whose class may be c, or is not known.
func (a *Model) constructed(c *classInfo, depth int) bool {
	name := ""
	if c.node.Name != nil {
		name = c.node.Name.Name.String()
	}
	for _, s := range a.sites {
		if !s.isNew() {
			continue
		}
		if id, ok := unwrap(s.callee()).(*ast.Identifier); ok && name != "" && id.Name.String() != name && s.sc.lookup(id.Name.String()) != nil && s.sc.lookup(id.Name.String()).decl == DeclClass {
			continue // another class declaration
		}
		for _, v := range a.set(s.callee(), s.sc, depth+1) {
			if v.k == vClass && v.cls == c || v.k == vUnk {
				return true
			}
		}
	}
	return false
}

func (a *Model) newSet(x *ast.NewExpression, sc *Scope, depth int) vset {
	if id, ok := x.Callee.(*ast.Identifier); ok && sc.lookup(id.Name.String()) == nil {
		switch id.Name.String() {
		case "URL":
			if len(x.ArgumentList) == 0 {
				return unk("")
			}
			p := a.set(x.ArgumentList[0], sc, depth+1)
			if len(x.ArgumentList) == 1 {
				return p
			}
			var out vset
			for _, base := range a.set(x.ArgumentList[1], sc, depth+1) {
				for _, pv := range p {
					out = out.add(resolveURLv(pv, base))
				}
			}
			return out
		case "URLSearchParams":
			return unk("the query string is computed at run time")
		}
	}
	var out vset
	for _, v := range a.set(x.Callee, sc, depth+1) {
		if v.k == vClass {
			out = out.add(av{k: vInst, cls: v.cls, lit: -1})
		} else {
			out = out.add(unk("`new " + a.exprText(x.Callee) + "` is not a class of the page")...)
		}
	}
	return out
}

// resolveURLv is new URL(p, base) for one pair of alternatives.
func resolveURLv(p, base av) av {
	if base.k != vStr {
		r := base.reason
		if r == "" {
			r = "the base URL is only known at run time"
		}
		return av{k: vUnk, reason: r, lit: -1}
	}
	b, err := url.Parse(base.s)
	if err != nil || !b.IsAbs() {
		return av{k: vUnk, reason: "the base URL " + quote(base.s) + " is not absolute", lit: -1}
	}
	switch p.k {
	case vStr:
		r, err := url.Parse(p.s)
		if err != nil {
			return av{k: vUnk, reason: "the path " + quote(p.s) + " does not parse", lit: -1}
		}
		lit := base.lit
		if r.IsAbs() {
			lit = p.lit
		}
		return av{k: vStr, s: b.ResolveReference(r).String(), lit: lit}
	case vPre:
		if strings.Contains(p.s, "://") {
			return p
		}
		if !strings.HasPrefix(p.s, "//") {
			known := p.s
			if cut := strings.IndexAny(known, "?#%"); cut >= 0 {
				known = known[:cut]
			}
			if i := strings.IndexAny(known, ":/"); i >= 0 && known[i] == ':' {
				return av{k: vUnk, reason: p.reason, lit: -1} // a scheme may follow
			}
			if strings.HasPrefix(p.s, "/") || strings.Contains(known, "/") || strings.ContainsAny(p.s, "?#") {
				r, err := url.Parse(known)
				if err == nil {
					return av{k: vPre, s: b.ResolveReference(r).String(), reason: p.reason, lit: base.lit}
				}
			}
		}
	}
	reason := p.reason
	if reason == "" {
		reason = "the path is only known at run time"
	}
	return av{k: vUnk, reason: reason, lit: -1}
}

var stringMethods = map[string]bool{"toLowerCase": true, "toUpperCase": true, "trim": true, "toString": true, "valueOf": true}

func (a *Model) callSet(x *ast.CallExpression, sc *Scope, depth int) vset {
	args := x.ArgumentList
	switch c := unwrap(x.Callee).(type) {
	case *ast.Identifier:
		name := c.Name.String()
		if sc.lookup(name) == nil {
			switch name {
			case "String":
				if len(args) == 1 {
					return a.set(args[0], sc, depth+1)
				}
			case "encodeURI":
				if len(args) == 1 {
					return mapStr(a.set(args[0], sc, depth+1), encodeURI, true)
				}
			case "encodeURIComponent":
				if len(args) == 1 {
					return mapStr(a.set(args[0], sc, depth+1), url.QueryEscape, false)
				}
			}
		}
	case *ast.DotExpression:
		m := c.Identifier.Name.String()
		if id, ok := c.Left.(*ast.Identifier); ok && id.Name.String() == "Object" && sc.lookup("Object") == nil && (m == "freeze" || m == "seal") && len(args) == 1 {
			return a.set(args[0], sc, depth+1)
		}
		switch {
		case stringMethods[m] && len(args) == 0:
			recv := a.set(c.Left, sc, depth+1)
			if m == "toString" || m == "valueOf" {
				return recv
			}
			return mapStr(recv, func(s string) string {
				switch m {
				case "toLowerCase":
					return strings.ToLower(s)
				case "toUpperCase":
					return strings.ToUpper(s)
				}
				return strings.TrimSpace(s)
			}, false)
		case m == "concat":
			recv := a.set(c.Left, sc, depth+1)
			if isStrings(recv) {
				for _, arg := range args {
					recv = concat(recv, a.set(arg, sc, depth+1), a.exprText(arg))
				}
				return recv
			}
		case m == "join":
			recv := a.set(c.Left, sc, depth+1)
			sep := vset{str(",", -1)}
			if len(args) > 0 {
				sep = a.set(args[0], sc, depth+1)
			}
			var out vset
			for _, r := range recv {
				out = out.add(a.join(r, sep, depth)...)
			}
			return out
		case m == "split" && len(args) >= 1:
			recv := a.set(c.Left, sc, depth+1)
			sep := a.set(args[0], sc, depth+1)
			var out vset
			for _, r := range recv {
				if r.k != vStr || len(sep) != 1 || sep[0].k != vStr || len(args) > 1 {
					out = out.add(unk("the list is split at run time")...)
					continue
				}
				var items []vset
				for _, part := range strings.Split(r.s, sep[0].s) {
					items = append(items, vset{str(part, -1)})
				}
				out = out.add(av{k: vArr, items: items, lit: -1})
			}
			return out
		case m == "replace" || m == "replaceAll":
			if len(args) == 2 {
				return a.replace(a.set(c.Left, sc, depth+1), args[0], a.set(args[1], sc, depth+1), sc, m == "replaceAll", depth)
			}
		}
	}
	// A call of the bundle's own functions: what they return.
	var out vset
	for _, v := range a.set(x.Callee, sc, depth+1) {
		if v.k != vFn {
			out = out.add(unk("`" + a.exprText(x) + "` is computed at run time")...)
			continue
		}
		out = out.add(a.returns(v.fn, depth)...)
	}
	return out
}

func isStrings(s vset) bool {
	for _, v := range s {
		if v.k != vStr && v.k != vPre {
			return false
		}
	}
	return len(s) > 0
}

// mapStr applies f to the exact alternatives; a known start keeps its
// start when f leaves a URL's scheme and host alone (prefixOK).
func mapStr(s vset, f func(string) string, prefixOK bool) vset {
	var out vset
	for _, v := range s {
		switch {
		case v.k == vStr:
			out = out.add(av{k: vStr, s: f(v.s), lit: v.lit})
		case v.k == vPre && prefixOK:
			out = out.add(av{k: vPre, s: f(v.s), reason: v.reason, lit: v.lit})
		case v.k == vUndef:
			out = out.add(av{k: vStr, s: f("undefined"), lit: -1})
		default:
			r := v.reason
			if v.k == vPre {
				r = "the text is encoded at run time"
			}
			out = out.add(av{k: vUnk, reason: r, lit: -1})
		}
	}
	return out
}

// encodeURI escapes as JavaScript's encodeURI does (the URL's reserved
// characters stay).
func encodeURI(s string) string {
	const keep = ";,/?:@&=+$-_.!~*'()#"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)|0x100, 16)[1:]))
	}
	return b.String()
}

// join is arr.join(sep) for one array alternative.
func (a *Model) join(r av, sep vset, depth int) vset {
	if r.k != vArr {
		return unk("`join` of something that is not a known list")
	}
	var parts []vset
	if lit, ok := r.node.(*ast.ArrayLiteral); ok {
		for _, e := range lit.Value {
			if _, isSpread := e.(*ast.SpreadElement); isSpread || e == nil {
				return unk("the list has a spread")
			}
			parts = append(parts, a.set(e, r.sc, depth+1))
		}
	} else {
		parts = r.items
	}
	out := vset{str("", -1)}
	for i, p := range parts {
		if i > 0 {
			out = concat(out, sep, "")
		}
		out = concat(out, p, "")
	}
	return out
}

// replace is s.replace(pattern, replacement) on known strings: computed
// when the replacement is known text, else the part before the first
// match stays known.
func (a *Model) replace(recv vset, pat ast.Expression, repl vset, sc *Scope, all bool, depth int) vset {
	var re *regexp.Regexp
	global := all
	if rl, ok := pat.(*ast.RegExpLiteral); ok {
		r, err := regexp.Compile(rl.Pattern)
		if err != nil || strings.ContainsAny(rl.Flags, "yu") {
			return unk("the pattern is only applied at run time")
		}
		if strings.Contains(rl.Flags, "i") {
			if r, err = regexp.Compile("(?i)" + rl.Pattern); err != nil {
				return unk("")
			}
		}
		re, global = r, global || strings.Contains(rl.Flags, "g")
	} else {
		ps := a.set(pat, sc, depth+1)
		if len(ps) != 1 || ps[0].k != vStr {
			return unk("the pattern is only known at run time")
		}
		re = regexp.MustCompile(regexp.QuoteMeta(ps[0].s))
	}
	literal := len(repl) == 1 && repl[0].k == vStr && !strings.Contains(repl[0].s, "$")
	var out vset
	for _, v := range recv {
		if v.k != vStr {
			if v.k == vPre {
				if loc := re.FindStringIndex(v.s); loc == nil {
					out = out.add(av{k: vPre, s: "", reason: "the text is rewritten at run time", lit: -1})
					continue
				}
			}
			out = out.add(av{k: vUnk, reason: firstNonEmpty(v.reason, "the text is rewritten at run time"), lit: -1})
			continue
		}
		loc := re.FindStringIndex(v.s)
		switch {
		case loc == nil:
			out = out.add(v)
		case literal && global:
			out = out.add(av{k: vStr, s: re.ReplaceAllLiteralString(v.s, repl[0].s), lit: v.lit})
		case literal:
			out = out.add(av{k: vStr, s: v.s[:loc[0]] + repl[0].s + v.s[loc[1]:], lit: v.lit})
		default:
			if loc[0] == 0 {
				out = out.add(av{k: vUnk, reason: "the replacement is computed at run time", lit: -1})
			} else {
				out = out.add(av{k: vPre, s: v.s[:loc[0]], reason: "the replacement is computed at run time", lit: v.lit})
			}
		}
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// taggedTemplate evaluates String.raw`…`; any other tag computes its
// result at run time.
// isStringRaw reports whether tag is the global String.raw.
func (a *Model) isStringRaw(tag ast.Expression, sc *Scope) bool {
	d, ok := unwrap(tag).(*ast.DotExpression)
	if !ok || d.Identifier.Name.String() != "raw" {
		return false
	}
	id, ok := unwrap(d.Left).(*ast.Identifier)
	return ok && id.Name.String() == "String" && sc.lookup("String") == nil
}

func (a *Model) taggedTemplate(x *ast.TemplateLiteral, sc *Scope, depth int) vset {
	if !a.isStringRaw(x.Tag, sc) {
		// A tag of the bundle's own: what it returns, its parameters
		// taking the strings and the substitutions (see tagArgs).
		var out vset
		for _, v := range a.set(x.Tag, sc, depth+1) {
			if v.k != vFn {
				return unk("a tagged template is computed at run time")
			}
			out = out.add(a.returns(v.fn, depth)...)
		}
		if out == nil {
			return unk("a tagged template is computed at run time")
		}
		return out
	}
	out := vset{str("", -1)} // String.raw`…`: the raw text and the values
	for i, el := range x.Elements {
		out = concat(out, vset{str(el.Literal, -1)}, "")
		if i < len(x.Expressions) {
			out = concat(out, a.set(x.Expressions[i], sc, depth+1), a.exprText(x.Expressions[i]))
		}
	}
	return out
}

// exprText is the text of an expression, for reasons.
func (a *Model) exprText(e ast.Expression) string { return a.src.Text(e) }

// jsStart is the consumer's offset where a node starts, -1 when unmapped.
func (a *Model) jsStart(n ast.Node) int { return a.src.Start(n) }

// returns is what a function may return (the same at every call site:
// parameters hold the union of all call sites), memoized when complete.
func (a *Model) returns(f *fnInfo, depth int) vset {
	if f.retMemo != nil {
		return f.retMemo
	}
	if f.evaluating {
		return a.cut("the function calls itself")
	}
	f.evaluating = true
	defer func() { f.evaluating = false }()
	cuts := a.es.cuts
	var out vset
	if len(f.rets) == 0 {
		out = out.add(av{k: vUndef, lit: -1})
	}
	for _, r := range f.rets {
		out = out.add(a.set(r.e, r.sc, depth+1)...)
	}
	if a.es.cuts == cuts && !a.walking {
		f.retMemo = out
	}
	return out
}

// mayCall is a quick syntactic filter before a callee is evaluated: a
// function declared under a name (and never used as a value: see
// paramSet) is called by that name, a method by its property name (or a
// computed one), a constructor by new; anonymous functions (closures a
// factory returns, callbacks kept in variables) by anything.
func mayCall(s *site, f *fnInfo) bool {
	if f.ctor != nil {
		return s.isNew()
	}
	if s.isNew() {
		return false
	}
	callee := unwrap(s.callee())
	switch {
	case f.bind != nil && !f.bind.escaped:
		id, ok := callee.(*ast.Identifier)
		return ok && id.Name.String() == f.bind.name()
	case f.member != "":
		switch c := callee.(type) {
		case *ast.DotExpression:
			return c.Identifier.Name.String() == f.member
		case *ast.BracketExpression:
			return true
		}
		return false
	}
	return true
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return "\"" + s + "\""
}
