package jsmodule

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// # Writes to the tools after their literal
//
// ReadExports reads the tools map and its definitions from their
// literals. A full-trust module can change them after that: an
// assignment, a push, Object.assign, a getter, a spread of something
// that changes, a write through an alias or in a function called with
// one. Code that may do so is a Mutation: the literal is then not what
// runs, and a reader of the module must say so instead of trusting it.
//
// The search is a flow-insensitive taint analysis over the whole module
// (every function body included, whether or not it runs at load): the
// protected objects are every exported object read as a tools map or a
// definition, their property values (requires, needsApproval,
// inputJsonSchema, …), the bindings they are written under and what is
// spread into them, the imported bindings used as entries, and
// Object.prototype (what a definition without its own property
// inherits). A value that may be one of them is tracked through names,
// members, destructuring, for-of, containers (an array or object literal
// holding one, Object.values, Object.entries, slice, filter), function
// parameters and returns (every call of a local function) and callbacks
// of array methods. It is reported:
//
//   - when it is written: = (and compound assignments), ++/--, delete,
//     a destructuring or for-in/of target, push/pop/shift/unshift/splice/
//     sort/reverse/fill/copyWithin, Object.assign, Object.defineProperty
//     (and defineProperties), Reflect.set/defineProperty/deleteProperty,
//     Object.setPrototypeOf and Reflect.setPrototypeOf;
//   - when a binding it is held in is assigned again (the export of a
//     mutable binding included);
//   - when it leaves the module's sight: passed to a function that is not
//     a local one or a known harmless builtin (console, JSON.stringify,
//     Object.keys, …), given to `new` (a Proxy), stored in a global;
//   - when the literal itself is not a fact: a getter or setter, a
//     computed key that is not constant, a `__proto__` key, a spread of a
//     value not statically known or of a `let`/`var`/imported binding
//     inside a definition, a requires or needsApproval that is not
//     statically known.
//
// Top-level `tools.x = …` and `Object.assign(tools, …)` statements are
// read as entries of the map (see the package doc), not as mutations.
// What stays out of sight: code in other modules (a caller that can read
// them follows Mutation.From), `eval` and `Function` (strings run as
// code), and what the host's own realm offers a full-trust module beyond
// the tools (it can patch the host itself: that is what full trust
// means, and why the reviewer approves its bytes).

// Mutation is code that may change an exported tools map or definition
// after its literal: the literal is not what runs.
type Mutation struct {
	// Span is the write (the assignment, the call, the spread).
	Span Span
	// Export is the export of this module that changes, read as a tools
	// map or (Def) as a definition ("" when From is set or Proto). An
	// exported object is read both ways: a write is one Mutation each.
	Export string
	Def    bool
	// From and Name are set when the value changed is imported here: the
	// export Name of the module From.
	From, Name string
	// Proto is set for a write to Object.prototype (or Array.prototype):
	// every definition without its own property inherits it.
	Proto bool
	// Path is the keys from the export to what changes ("*" for a key not
	// known statically): for a tools map [tool, property], for a
	// definition [property]; shorter when the whole entry (or the whole
	// map) may change.
	Path []string
	// Reason says how, quoting the code: "`send.needsApproval = false`
	// writes it".
	Reason string
}

// ToolChange is what a Mutation changes in one tools map.
type ToolChange struct {
	Mutation
	// Tool is the tool changed, "*" when any tool may be, "" when the
	// map as a whole.
	Tool string
	// Prop is the property changed, "" when the whole definition.
	Prop string
}

// Changes returns what the module's mutations change in the map it
// exports as export, the definitions it holds included (the prototype's
// too: they reach every tool), in source order.
func (m *Module) Changes(export string) []ToolChange {
	var out []ToolChange
	for _, mu := range m.Mutations {
		switch {
		case mu.Proto:
			out = append(out, ToolChange{Mutation: mu, Tool: "*", Prop: first(mu.Path)})
		case mu.Export == export && !mu.Def && mu.From == "":
			tc := ToolChange{Mutation: mu}
			if len(mu.Path) > 0 {
				tc.Tool = mu.Path[0]
			}
			if len(mu.Path) > 1 {
				tc.Prop = mu.Path[1]
			}
			out = append(out, tc)
		}
	}
	return out
}

// DefChanges returns what a mutation changes in a definition (Path
// relative to it): the property, "" for the whole definition.
func DefChanges(mu Mutation) string { return first(mu.Path) }

func first(p []string) string {
	if len(p) > 0 {
		return p[0]
	}
	return ""
}

// root is what a place starts from.
type root struct {
	export     string // an export of the module (a map or a definition)
	from, name string // an imported binding
	proto      bool   // Object.prototype and Array.prototype
	isMap      bool   // export is read as a tools map (its keys are tools)
	// copyAt is set for what a top-level spread copies (offset of the
	// spread): a write after it at the top level changes the original,
	// not the copy the tools hold.
	copyAt int
}

// place is a protected value: the object reached from a root by path
// (at most 2 keys: deeper is inside the property path[1]), or (held) a
// fresh container that may hold such values.
type place struct {
	root int32
	n    uint8
	held bool
	path [maxPathDepth]string
}

// maxPathDepth is how deep a place is told apart: a map, a tool, its
// property (a namespace import has one level more: the export).
const maxPathDepth = 3

func (p place) member(key string) place {
	if p.n < maxPathDepth {
		p.path[p.n] = key
		p.n++
	}
	return p
}

// pset is a small set of places.
type pset []place

// maxPlaces bounds a set: past it, each root collapses to itself and a
// container of it (what every member of it may be); past maxRoots roots,
// the set is anyRoot: every protected value.
const (
	maxPlaces = 48
	maxRoots  = 32
)

// protoRoot and anyRoot are the first roots of every search.
const (
	protoRoot int32 = 0
	anyRoot   int32 = 1
)

func (s pset) add(ps ...place) pset {
	for _, p := range ps {
		dup := false
		for _, q := range s {
			if q == p {
				dup = true
				break
			}
		}
		if !dup {
			s = append(s, p)
		}
	}
	if len(s) > maxPlaces {
		var out pset
		seen := map[int32]bool{}
		for _, p := range s {
			if !seen[p.root] {
				seen[p.root] = true
				out = append(out, place{root: p.root}, place{root: p.root, held: true})
			}
		}
		if len(seen) > maxRoots || seen[anyRoot] {
			return pset{{root: anyRoot}, {root: anyRoot, held: true}}
		}
		return out
	}
	return s
}

// member is what s.key may be: a deeper place, or for a container,
// what it holds.
func (s pset) member(key string) pset {
	var out pset
	for _, p := range s {
		if p.held {
			q := p
			q.held = false
			out = out.add(q, p)
			continue
		}
		out = out.add(p.member(key))
	}
	return out
}

// heldAll is a container holding the values of s.
func (s pset) heldAll() pset {
	var out pset
	for _, p := range s {
		p.held = true
		out = out.add(p)
	}
	return out
}

// src is one way a binding gets a value: expression e in sc, then the
// keys of path (a destructuring pattern), each element of it (iter), or
// a container of it (held, a rest pattern).
type src struct {
	e    ast.Expression
	sc   *jsfront.Scope
	path []string
	iter bool
	held bool
}

type paramKey struct {
	fn  ast.Expression
	idx int
}

// taint is the state of the search.
type taint struct {
	r     *reader
	roots []root
	proto int32
	// byBinding and byLit are the protected bindings and literals;
	// lits are the object literals known for a place (to find a method
	// called on it).
	byBinding map[*jsfront.Binding]pset
	byLit     map[ast.Node]pset
	byImport  map[string]pset
	lits      map[place][]*ast.ObjectLiteral
	// additions are the top-level statements read as entries of a map.
	additions map[ast.Node]bool
	// arrows are the arrow functions with an expression body (the others
	// are the reader's funcs).
	arrows []Span

	inits   map[*jsfront.Binding][]src
	assigns map[*jsfront.Binding][]src
	events  []event
	// val is what each binding read may hold; order is the bindings in
	// the order first wanted.
	val   map[*jsfront.Binding]pset
	order []*jsfront.Binding
	// evaluated is the round each binding was last worked out in; depth
	// the refreshes under way.
	evaluated map[*jsfront.Binding]int
	pass      int
	depth     int
	params    map[paramKey]pset
	extra     map[*jsfront.Binding]pset
	rets      map[ast.Expression]pset
	inRet     map[ast.Expression]bool
	changed   bool

	muts    []Mutation
	mutSeen map[mutKey]bool
	leaks   int
}

// mutKey identifies a Mutation (one per write and what it changes).
type mutKey struct {
	at                 Span
	export, from, name string
	def, proto         bool
	path               string
}

// maxMutations bounds what one module records: past it, more of the
// same says nothing new (the tools are not trusted already).
const maxMutations = 1000

// event is an expression or statement that may write, call or leak.
type event struct {
	n  ast.Node
	sc *jsfront.Scope
}

func newTaint(r *reader) *taint {
	t := &taint{r: r,
		byBinding: map[*jsfront.Binding]pset{}, byLit: map[ast.Node]pset{}, byImport: map[string]pset{},
		lits: map[place][]*ast.ObjectLiteral{}, additions: map[ast.Node]bool{},
		inits: map[*jsfront.Binding][]src{}, assigns: map[*jsfront.Binding][]src{},
		val: map[*jsfront.Binding]pset{}, evaluated: map[*jsfront.Binding]int{}, params: map[paramKey]pset{}, extra: map[*jsfront.Binding]pset{},
		rets: map[ast.Expression]pset{}, inRet: map[ast.Expression]bool{}, mutSeen: map[mutKey]bool{}}
	t.proto = t.addRoot(root{proto: true})
	t.addRoot(root{}) // anyRoot
	return t
}

func (t *taint) addRoot(rt root) int32 {
	t.roots = append(t.roots, rt)
	return int32(len(t.roots) - 1)
}

// ---- jsfront.Visitor (the reader forwards to it) ----

func (t *taint) expr(e ast.Expression, sc *jsfront.Scope) {
	switch x := e.(type) {
	case *ast.AssignExpression, *ast.CallExpression, *ast.NewExpression:
		t.events = append(t.events, event{x, sc})
		if a, ok := x.(*ast.AssignExpression); ok {
			t.assignSources(a, sc)
		}
	case *ast.UnaryExpression:
		switch x.Operator {
		case token.DELETE, token.INCREMENT, token.DECREMENT:
			t.events = append(t.events, event{x, sc})
		}
	case *ast.TemplateLiteral:
		if x.Tag != nil {
			t.events = append(t.events, event{x, sc})
		}
	case *ast.ArrowFunctionLiteral:
		t.arrows = append(t.arrows, t.r.span(x))
	}
}

func (t *taint) stmt(s ast.Statement, sc *jsfront.Scope) {
	var into ast.ForInto
	var source ast.Expression
	of := false
	switch x := s.(type) {
	case *ast.ForOfStatement:
		if x == nil {
			return
		}
		into, source, of = x.Into, x.Source, true
	case *ast.ForInStatement:
		if x == nil {
			return
		}
		into, source = x.Into, x.Source
	default:
		return
	}
	fe, ok := into.(*ast.ForIntoExpression)
	if !ok || fe == nil {
		return
	}
	t.events = append(t.events, event{s, sc})
	if of {
		t.patternSources(fe.Expression, src{e: source, sc: sc, iter: true}, sc)
	}
}

func (t *taint) binding(b *ast.Binding, sc *jsfront.Scope) {
	if b == nil || b.Initializer == nil {
		return
	}
	t.declSources(b.Target, src{e: b.Initializer, sc: sc}, sc)
}

// declSources records the initializer of every name a declaration's
// target binds.
func (t *taint) declSources(target ast.Expression, s src, sc *jsfront.Scope) {
	t.walkPattern(target, s, func(id *ast.Identifier, s src) {
		if b := sc.Lookup(id.Name.String()); b != nil {
			t.inits[b] = append(t.inits[b], s)
		}
	}, nil)
}

// assignSources records what an assignment gives the names it assigns.
func (t *taint) assignSources(x *ast.AssignExpression, sc *jsfront.Scope) {
	switch x.Operator {
	case token.ASSIGN, token.LOGICAL_OR, token.LOGICAL_AND, token.COALESCE:
	default:
		return
	}
	t.patternSources(x.Left, src{e: x.Right, sc: sc}, sc)
}

func (t *taint) patternSources(target ast.Expression, s src, sc *jsfront.Scope) {
	t.walkPattern(target, s, func(id *ast.Identifier, s src) {
		if b := sc.Lookup(id.Name.String()); b != nil {
			t.assigns[b] = append(t.assigns[b], s)
		}
	}, nil)
}

// walkPattern calls name for every identifier a pattern binds (with the
// source extended by its keys) and member for every member target.
func (t *taint) walkPattern(p ast.Expression, s src, name func(*ast.Identifier, src), member func(ast.Expression, src)) {
	step := func(key string) src {
		n := s
		n.path = append(append([]string(nil), s.path...), key)
		return n
	}
	switch x := p.(type) {
	case *ast.Identifier:
		name(x, s)
	case *ast.ObjectPattern:
		for _, pr := range x.Properties {
			switch q := pr.(type) {
			case *ast.PropertyShort:
				t.walkPattern(&q.Name, step(q.Name.Name.String()), name, member)
			case *ast.PropertyKeyed:
				key, ok := jsfront.PropKey(q.Key)
				if !ok || q.Computed {
					key = "*"
				}
				t.walkPattern(q.Value, step(key), name, member)
			}
		}
		if x.Rest != nil {
			r := step("*")
			r.held = true
			t.walkPattern(x.Rest, r, name, member)
		}
	case *ast.ArrayPattern:
		for _, el := range x.Elements {
			if el != nil {
				t.walkPattern(el, step("*"), name, member)
			}
		}
		if x.Rest != nil {
			r := step("*")
			r.held = true
			t.walkPattern(x.Rest, r, name, member)
		}
	case *ast.AssignExpression: // a default
		t.walkPattern(x.Left, s, name, member)
	case *ast.Binding:
		t.walkPattern(x.Target, s, name, member)
	case *ast.DotExpression, *ast.BracketExpression, *ast.PrivateDotExpression:
		if member != nil {
			member(x, s)
		}
	}
}

// ---- protected values ----

// protect registers e (an export's value, an entry's, a property's) as
// the place pl: the names it comes through, the literal it resolves to
// and, inside that literal, every property value one key further.
func (t *taint) protect(e ast.Expression, pl place, depth int) {
	if e == nil || depth > 24 {
		return
	}
	switch x := e.(type) {
	case *ast.Identifier:
		name := x.Name.String()
		if _, imported := t.r.imports[name]; imported && t.r.binding(name) == nil {
			t.byImport[name] = t.byImport[name].add(pl)
			return
		}
		b := t.r.binding(name)
		if b == nil {
			return
		}
		if have := t.byBinding[b]; have != nil && contains(have, pl) {
			return // a cycle
		}
		t.byBinding[b] = t.byBinding[b].add(pl)
		if !b.Destructured() {
			t.protect(b.Init(), pl, depth+1)
		}
	case *ast.CallExpression:
		if isFreeze(x) && len(x.ArgumentList) == 1 {
			t.protect(x.ArgumentList[0], pl, depth+1)
		}
	case *ast.ObjectLiteral:
		if contains(t.byLit[x], pl) {
			return
		}
		t.byLit[x] = t.byLit[x].add(pl)
		t.lits[pl] = append(t.lits[pl], x)
		for _, pr := range x.Value {
			switch q := pr.(type) {
			case *ast.PropertyKeyed:
				key, ok := t.r.objKey(q.Key, q.Computed)
				switch {
				case !ok:
					if !t.mapLevel(pl) { // the map's own: native-exports-unknown's
						t.literal(q.Key, pl, "*", fmt.Sprintf("the computed key `%s` is not a constant", t.code(q.Key)))
					}
					key = "*"
				case key == "__proto__" && !q.Computed && q.Kind == ast.PropertyKindValue:
					t.literal(q.Key, pl, key, fmt.Sprintf("`__proto__: %s` gives it properties it inherits", t.code(q.Value)))
				}
				if q.Kind == ast.PropertyKindGet || q.Kind == ast.PropertyKindSet {
					kind := "get"
					if q.Kind == ast.PropertyKindSet {
						kind = "set"
					}
					t.literal(q.Key, pl, key, fmt.Sprintf("`%s %s()` computes it when it is read", kind, key))
				}
				t.protect(q.Value, pl.member(key), depth+1)
			case *ast.PropertyShort:
				id := q.Name
				t.protect(&id, pl.member(id.Name.String()), depth+1)
			case *ast.SpreadElement:
				t.spread(q, pl, depth)
			}
		}
	case *ast.ArrayLiteral:
		if contains(t.byLit[x], pl) {
			return
		}
		t.byLit[x] = t.byLit[x].add(pl)
		for _, el := range x.Value {
			if sp, ok := el.(*ast.SpreadElement); ok {
				t.spread(sp, pl, depth)
				continue
			}
			t.protect(el, pl.member("*"), depth+1)
		}
	}
}

// copyOf is pl as copied by a spread at offset at (unless the spread is
// in a function: it may run at any time).
func (t *taint) copyOf(pl place, at int) place {
	if t.inFunction(at) {
		return pl
	}
	base := t.roots[pl.root]
	base.copyAt = 0
	for i, r := range t.roots {
		c := r.copyAt
		r.copyAt = 0
		if r == base && c > 0 {
			// One copy root per root: a write is harmless only after the
			// last copy.
			t.roots[i].copyAt = max(c, at)
			pl.root = int32(i)
			return pl
		}
	}
	base.copyAt = at
	pl.root = t.addRoot(base)
	return pl
}

// inFunction reports whether offset at is inside a function.
func (t *taint) inFunction(at int) bool {
	for _, f := range t.r.funcs {
		if f.span.Start <= at && at < f.span.End {
			return true
		}
	}
	for _, s := range t.arrows {
		if s.Start <= at && at < s.End {
			return true
		}
	}
	return false
}

// mapLevel reports whether pl is a tools map itself.
func (t *taint) mapLevel(pl place) bool { return pl.n == 0 && t.roots[pl.root].isMap }

// spread registers the source of a spread into a protected literal: what
// it holds becomes the literal's. Inside a definition the source must be
// a constant: a `let`, a `var`, an import or a computed value may differ
// from what a reader of the text sees.
func (t *taint) spread(sp *ast.SpreadElement, pl place, depth int) {
	t.protect(sp.Expression, t.copyOf(pl, t.r.off(sp.Idx0())), depth+1)
	if t.mapLevel(pl) {
		return // the map's spreads: read by ReadExports (or unknowable there)
	}
	e := sp.Expression
	reason := ""
	for hops := 0; hops < maxDepth && reason == ""; hops++ {
		switch x := e.(type) {
		case *ast.Identifier:
			name := x.Name.String()
			b := t.r.binding(name)
			switch {
			case b == nil && t.isImported(name):
				reason = fmt.Sprintf("`...%s` spreads an imported value, which the module it comes from may change", name)
			case b == nil:
				reason = fmt.Sprintf("`...%s` spreads a value that is not a top-level constant", name)
			case b.Kind() == jsfront.DeclLet || b.Kind() == jsfront.DeclVar:
				reason = fmt.Sprintf("`...%s` spreads a `%s`, which may change", name, kindWord(b.Kind()))
			case b.Destructured() || b.Init() == nil:
				reason = fmt.Sprintf("`...%s` spreads a value that is not statically known", name)
			default:
				e = b.Init()
				continue
			}
		case *ast.CallExpression:
			if isFreeze(x) && len(x.ArgumentList) == 1 {
				e = x.ArgumentList[0]
				continue
			}
			reason = fmt.Sprintf("`...%s` spreads the result of a call", t.code(sp.Expression))
		case *ast.ObjectLiteral, *ast.ArrayLiteral:
			return
		default:
			reason = fmt.Sprintf("`...%s` spreads a value that is not statically known", t.code(sp.Expression))
		}
	}
	if reason != "" {
		t.mutate(t.r.spreadSpan(sp), pl, "*", reason)
	}
}

func kindWord(k jsfront.DeclKind) string {
	if k == jsfront.DeclLet {
		return "let"
	}
	return "var"
}

func (t *taint) isImported(name string) bool {
	_, ok := t.r.imports[name]
	return ok
}

// literal reports a part of a protected literal that is not a fact.
func (t *taint) literal(n ast.Node, pl place, key, reason string) {
	t.mutate(t.r.span(n), pl, key, reason)
}

func contains(s pset, p place) bool {
	for _, q := range s {
		if q == p {
			return true
		}
	}
	return false
}

// ---- the search ----

// maxPasses bounds the rounds of the fixpoint; a module that needs more
// is reported as unreadable in this respect.
const maxPasses = 40

func (t *taint) run() {
	if len(t.byBinding)+len(t.byLit)+len(t.byImport) == 0 {
		return
	}
	for b, ps := range t.byBinding {
		t.val[b] = ps
		t.order = append(t.order, b)
	}
	sortBindings(t.order, t.r)
	for pass := 1; ; pass++ {
		t.changed = false
		t.pass = pass
		for i := 0; i < len(t.order); i++ {
			if b := t.order[i]; t.evaluated[b] != pass {
				t.refresh(b)
			}
		}
		for k := range t.rets {
			delete(t.rets, k)
		}
		for _, ev := range t.events {
			t.event(ev)
		}
		if !t.changed {
			return
		}
		if pass >= maxPasses {
			for _, tm := range t.r.m.Maps {
				t.muts = append(t.muts, Mutation{Span: tm.ExportSpan, Export: tm.Export, Reason: "the module passes its tools through too many names to follow"})
			}
			return
		}
	}
}

// maxRefreshDepth bounds the names worked out one through another
// within a round (the next round goes on from there).
const maxRefreshDepth = 2000

// refresh works out the value of b in this round, the names its sources
// read first (so that a chain of aliases takes one round).
func (t *taint) refresh(b *jsfront.Binding) {
	t.evaluated[b] = t.pass
	t.depth++
	v := t.bindingValue(b)
	t.depth--
	if nv := t.val[b].add(v...); len(nv) != len(t.val[b]) {
		t.val[b] = nv
		t.changed = true
	}
}

// want is the value of b, asking for it to be worked out in the next
// rounds when it was not yet.
func (t *taint) want(b *jsfront.Binding) pset {
	if _, ok := t.val[b]; !ok {
		t.val[b] = nil
		t.order = append(t.order, b)
		t.changed = true
	}
	if t.pass > 0 && t.evaluated[b] != t.pass && t.depth < maxRefreshDepth {
		t.refresh(b)
	}
	return t.val[b]
}

func (t *taint) bindingValue(b *jsfront.Binding) pset {
	var out pset
	out = out.add(t.byBinding[b]...)
	out = out.add(t.extra[b]...)
	for _, s := range t.inits[b] {
		out = out.add(t.srcValue(s)...)
	}
	for _, s := range t.assigns[b] {
		out = out.add(t.srcValue(s)...)
	}
	if it, sc := b.IterOf(); it != nil {
		v := t.eval(it, sc).member("*")
		out = out.add(v...)
		out = out.add(v.member("*")...) // for (const [k, v] of …)
	}
	if fn := b.ArgumentsOf(); fn != nil {
		out = out.add(t.params[paramKey{fn, -1}]...)
	}
	if fn, idx, _, def := b.Param(); fn != nil {
		v := t.params[paramKey{fn, idx}]
		if def != nil {
			v = v.add(t.eval(def, b.Scope())...)
		}
		if k := b.Key(); k != "" {
			v = v.member(k)
		}
		out = out.add(v...)
	}
	return out
}

func (t *taint) srcValue(s src) pset {
	v := t.eval(s.e, s.sc)
	if s.iter {
		v = v.member("*")
	}
	for _, k := range s.path {
		v = v.member(k)
	}
	if s.held {
		v = v.heldAll()
	}
	return v
}

// eval is what e in sc may hold of the protected values.
func (t *taint) eval(e ast.Expression, sc *jsfront.Scope) pset {
	switch x := e.(type) {
	case nil:
		return nil
	case *ast.Identifier:
		name := x.Name.String()
		if b := sc.Lookup(name); b != nil {
			return t.want(b)
		}
		if ps, ok := t.byImport[name]; ok {
			return ps
		}
		return nil
	case *ast.ThisExpression:
		if o := sc.ThisObject(); o != nil {
			return t.byLit[o]
		}
		return nil
	case *ast.ObjectLiteral:
		out := t.byLit[x]
		if len(out) > 0 {
			return out // protected: its members are places of their own
		}
		var held pset
		for _, pr := range x.Value {
			switch q := pr.(type) {
			case *ast.PropertyKeyed:
				if q.Kind == ast.PropertyKindValue {
					held = held.add(t.eval(q.Value, sc)...)
				}
			case *ast.PropertyShort:
				id := q.Name
				held = held.add(t.eval(&id, sc)...)
			case *ast.SpreadElement:
				held = held.add(t.eval(q.Expression, sc).member("*")...)
			}
		}
		return out.add(held.heldAll()...)
	case *ast.ArrayLiteral:
		out := t.byLit[x]
		if len(out) > 0 {
			return out
		}
		var held pset
		for _, el := range x.Value {
			if sp, ok := el.(*ast.SpreadElement); ok {
				held = held.add(t.eval(sp.Expression, sc).member("*")...)
				continue
			}
			held = held.add(t.eval(el, sc)...)
		}
		return out.add(held.heldAll()...)
	case *ast.DotExpression:
		name := x.Identifier.Name.String()
		if t.isProtoRef(x, sc) {
			return pset{{root: t.proto}}
		}
		return t.eval(x.Left, sc).member(name)
	case *ast.BracketExpression:
		key := t.key(x.Member, sc)
		if key == "__proto__" {
			return pset{{root: t.proto}}
		}
		return t.eval(x.Left, sc).member(key)
	case *ast.PrivateDotExpression:
		return t.eval(x.Left, sc).member("*")
	case *ast.ConditionalExpression:
		return t.eval(x.Consequent, sc).add(t.eval(x.Alternate, sc)...)
	case *ast.BinaryExpression:
		switch x.Operator {
		case token.LOGICAL_OR, token.LOGICAL_AND, token.COALESCE:
			return t.eval(x.Left, sc).add(t.eval(x.Right, sc)...)
		}
		return nil
	case *ast.AssignExpression:
		return t.eval(x.Right, sc)
	case *ast.SequenceExpression:
		if len(x.Sequence) > 0 {
			return t.eval(x.Sequence[len(x.Sequence)-1], sc)
		}
	case *ast.OptionalChain:
		return t.eval(x.Expression, sc)
	case *ast.Optional:
		return t.eval(x.Expression, sc)
	case *ast.AwaitExpression:
		return t.eval(x.Argument, sc)
	case *ast.CallExpression:
		return t.callValue(x, sc)
	case *ast.NewExpression:
		if containers[t.globalName(x.Callee, sc)] && len(x.ArgumentList) > 0 {
			return t.eval(x.ArgumentList[0], sc).member("*").heldAll()
		}
	}
	return nil
}

// Constructors that copy their argument's elements (the result holds
// them), and others that keep nothing of a tools object.
var containers = map[string]bool{"Map": true, "Set": true, "WeakMap": true, "WeakSet": true, "Array": true}

var harmlessNew = map[string]bool{
	"Error": true, "TypeError": true, "RangeError": true, "Date": true, "URL": true, "URLSearchParams": true,
	"Response": true, "Request": true, "Headers": true, "TextEncoder": true, "TextDecoder": true, "RegExp": true,
	"AbortController": true, "Promise": true,
}

// isProtoRef reports Object.prototype, Array.prototype, x.__proto__ and
// x.constructor.prototype.
func (t *taint) isProtoRef(x *ast.DotExpression, sc *jsfront.Scope) bool {
	switch x.Identifier.Name.String() {
	case "__proto__":
		return true
	case "prototype":
		switch l := x.Left.(type) {
		case *ast.Identifier:
			n := l.Name.String()
			return (n == "Object" || n == "Array") && sc.Lookup(n) == nil
		case *ast.DotExpression:
			return l.Identifier.Name.String() == "constructor"
		}
	}
	return false
}

// key is a member's key when it is one constant string, "*" otherwise.
func (t *taint) key(e ast.Expression, sc *jsfront.Scope) string {
	if s, ok := t.r.model.String(e, sc); ok {
		return s
	}
	return "*"
}

// ---- events ----

func (t *taint) event(ev event) {
	switch x := ev.n.(type) {
	case *ast.AssignExpression:
		if t.additions[x] {
			return
		}
		t.assign(x, ev.sc)
	case *ast.UnaryExpression:
		what := "`" + t.code(x) + "` "
		switch x.Operator {
		case token.DELETE:
			what += "deletes it"
		default:
			what += "changes it"
		}
		t.target(x.Operand, nil, ev.sc, t.r.span(x), what)
	case *ast.CallExpression:
		if t.additions[x] {
			return
		}
		t.call(x, ev.sc)
	case *ast.NewExpression:
		g := t.globalName(x.Callee, ev.sc)
		switch {
		case g == "Function":
			t.mutate(t.r.span(x), place{root: t.proto}, "", "`new Function(…)` runs code this checker cannot read")
		case containers[g] || harmlessNew[g]:
		default:
			t.leak(x.ArgumentList, ev.sc, t.r.span(x), func() string { return fmt.Sprintf("`new %s(…)` is given it", t.code(x.Callee)) })
		}
	case *ast.TemplateLiteral:
		t.leak(x.Expressions, ev.sc, t.r.span(x), func() string { return fmt.Sprintf("the tag `%s` is given it", t.code(x.Tag)) })
	case *ast.ForOfStatement:
		t.target(x.Into.(*ast.ForIntoExpression).Expression, nil, ev.sc, t.r.span(x.Into), "the for-of loop assigns it")
	case *ast.ForInStatement:
		t.target(x.Into.(*ast.ForIntoExpression).Expression, nil, ev.sc, t.r.span(x.Into), "the for-in loop assigns it")
	}
}

// assign handles `left op= right`.
func (t *taint) assign(x *ast.AssignExpression, sc *jsfront.Scope) {
	t.target(x.Left, x.Right, sc, t.r.span(x), "`"+t.code(x)+"` writes it")
}

// target handles a written target: a name, a member or a pattern.
func (t *taint) target(left, right ast.Expression, sc *jsfront.Scope, at Span, reason string) {
	switch l := left.(type) {
	case *ast.Identifier:
		name := l.Name.String()
		b := sc.Lookup(name)
		if b != nil {
			for _, p := range t.byBinding[b] {
				t.mutate(at, p, "", fmt.Sprintf("`%s` is assigned again (%s)", name, strings.TrimSuffix(reason, " writes it")))
			}
			return
		}
		if right != nil && !t.isImported(name) {
			if v := t.eval(right, sc); len(v) > 0 {
				t.leakSet(v, at, func() string { return fmt.Sprintf("it is stored in the global `%s`", name) })
			}
		}
	case *ast.DotExpression, *ast.BracketExpression, *ast.PrivateDotExpression:
		obj, key := t.memberOf(l, sc)
		for _, p := range t.eval(obj, sc) {
			if !p.held {
				t.mutate(at, p, key, reason)
			}
		}
		if right != nil {
			t.store(obj, t.eval(right, sc), sc, at)
		}
	case *ast.ObjectPattern, *ast.ArrayPattern:
		var s src
		if right != nil {
			s = src{e: right, sc: sc}
		}
		t.walkPattern(l, s, func(id *ast.Identifier, _ src) {
			if b := sc.Lookup(id.Name.String()); b != nil {
				for _, p := range t.byBinding[b] {
					t.mutate(at, p, "", fmt.Sprintf("`%s` is assigned again by a destructuring", id.Name))
				}
			}
		}, func(m ast.Expression, s src) {
			obj, key := t.memberOf(m, sc)
			for _, p := range t.eval(obj, sc) {
				if !p.held {
					t.mutate(at, p, key, fmt.Sprintf("the destructuring target `%s` writes it", t.code(m)))
				}
			}
			if s.e != nil {
				t.store(obj, t.srcValue(s), sc, at)
			}
		})
	}
}

// memberOf splits a member expression into its object and key.
func (t *taint) memberOf(e ast.Expression, sc *jsfront.Scope) (ast.Expression, string) {
	switch x := e.(type) {
	case *ast.DotExpression:
		return x.Left, x.Identifier.Name.String()
	case *ast.BracketExpression:
		return x.Left, t.key(x.Member, sc)
	case *ast.PrivateDotExpression:
		return x.Left, "*"
	}
	return nil, "*"
}

// store notes that v is written into obj: a local binding's container
// then holds it; anything else (a global, a call's result) takes it out
// of sight.
func (t *taint) store(obj ast.Expression, v pset, sc *jsfront.Scope, at Span) {
	if len(v) == 0 {
		return
	}
	base := obj
	for {
		switch x := base.(type) {
		case *ast.DotExpression:
			base = x.Left
			continue
		case *ast.BracketExpression:
			base = x.Left
			continue
		case *ast.PrivateDotExpression:
			base = x.Left
			continue
		}
		break
	}
	if id, ok := base.(*ast.Identifier); ok {
		if b := sc.Lookup(id.Name.String()); b != nil {
			if nv := t.extra[b].add(v.heldAll()...); len(nv) != len(t.extra[b]) {
				t.extra[b] = nv
				t.changed = true
			}
			return
		}
	}
	if _, ok := base.(*ast.ThisExpression); ok && sc.ThisObject() != nil {
		return // into a protected literal: reported as its write, or a local object
	}
	for _, p := range t.eval(obj, sc) {
		if !p.held {
			return // written into a protected object: reported as such
		}
	}
	t.leakSet(v, at, func() string { return fmt.Sprintf("it is stored in `%s`, out of sight", t.code(obj)) })
}

// leak reports the protected values among args: given to code this
// search cannot follow, which may change them.
func (t *taint) leak(args []ast.Expression, sc *jsfront.Scope, at Span, reason func() string) {
	for _, a := range args {
		if sp, ok := a.(*ast.SpreadElement); ok {
			a = sp.Expression
		}
		t.leakSet(t.eval(a, sc), at, reason)
	}
}

// leakSet reports the places of v; reason is worked out only then.
func (t *taint) leakSet(v pset, at Span, reason func() string) {
	if len(v) == 0 || t.leaks >= maxMutations/2 {
		return
	}
	why := reason() + ", which may change it"
	for _, p := range v {
		p.held = false
		t.mutate(at, p, "", why)
	}
}

// mutate records a change of the place p (its key, "" for p itself).
func (t *taint) mutate(at Span, p place, key, reason string) {
	if p.root == anyRoot { // too many to tell apart: any part of each
		for i, rt := range t.roots {
			if int32(i) == anyRoot || int32(i) == protoRoot {
				continue
			}
			q := place{root: int32(i)}
			if rt.isMap {
				q = q.member("*")
			}
			t.mutate(at, q, key, reason)
		}
		return
	}
	rt := t.roots[p.root]
	if rt.copyAt > 0 && at.Start > rt.copyAt && !t.inFunction(at.Start) {
		return // after the copy, at the top level: the copy is unchanged
	}
	path := append([]string(nil), p.path[:p.n]...)
	if key != "" {
		path = append(path, key)
	}
	if rt.proto {
		path = path[:min(len(path), 1)]
	}
	if rt.name != "*" {
		path = path[:min(len(path), 2)] // deeper is inside the property
	}
	def := rt.export != "" && !rt.isMap
	name := rt.name
	if name == "*" { // a namespace import: the first key is the export
		if len(path) == 0 {
			path = []string{"*"}
		}
		name, path = path[0], path[1:min(len(path), 3)]
	}
	id := mutKey{at, rt.export, rt.from, name, def, rt.proto, strings.Join(path, "\x00")}
	if t.mutSeen[id] || len(t.muts) >= maxMutations {
		return
	}
	if strings.HasSuffix(reason, ", which may change it") {
		if t.leaks >= maxMutations/2 {
			return // room is kept for writes
		}
		t.leaks++
	}
	t.mutSeen[id] = true
	t.muts = append(t.muts, Mutation{Span: at, Export: rt.export, Def: def, From: rt.from, Name: name, Proto: rt.proto, Path: path, Reason: reason})
}

// ---- calls ----

// Builtins that neither change nor keep their arguments.
var harmless = map[string]bool{
	"Object.keys": true, "Object.getOwnPropertyNames": true, "Object.getOwnPropertySymbols": true,
	"Object.isFrozen": true, "Object.isSealed": true, "Object.isExtensible": true, "Object.is": true,
	"Object.hasOwn": true, "Object.freeze": true, "Object.seal": true, "Object.preventExtensions": true,
	"Object.values": true, "Object.entries": true, "Object.getOwnPropertyDescriptor": true,
	"Object.getOwnPropertyDescriptors": true, "Object.fromEntries": true, "Object.getPrototypeOf": true,
	"Object.groupBy": true, "Object.create": true,
	"Reflect.get": true, "Reflect.has": true, "Reflect.ownKeys": true, "Reflect.getPrototypeOf": true,
	"Reflect.getOwnPropertyDescriptor": true, "Reflect.isExtensible": true,
	"JSON.stringify": true, "Array.isArray": true, "Array.from": true, "Array.of": true,
	"String": true, "Number": true, "Boolean": true, "BigInt": true, "Symbol": true,
	"structuredClone": true, "isNaN": true, "isFinite": true, "parseInt": true, "parseFloat": true,
	"encodeURIComponent": true, "encodeURI": true, "Promise.resolve": true, "Promise.all": true,
	"Promise.allSettled": true, "Promise.race": true, "Promise.any": true,
}

// Array (and Map/Set) methods that change their receiver.
var mutators = map[string]bool{
	"push": true, "pop": true, "shift": true, "unshift": true, "splice": true, "sort": true,
	"reverse": true, "fill": true, "copyWithin": true, "set": true, "add": true, "delete": true, "clear": true,
	"__defineGetter__": true, "__defineSetter__": true,
}

// Array methods whose callback gets the elements (index of the element
// parameter), and what they return.
var callbacks = map[string]int{
	"forEach": 0, "map": 0, "filter": 0, "find": 0, "findIndex": 0, "findLast": 0, "findLastIndex": 0,
	"some": 0, "every": 0, "flatMap": 0, "reduce": 1, "reduceRight": 1, "sort": 0, "toSorted": 0,
}

// Methods that neither change nor keep their arguments, on any receiver.
var readers = map[string]bool{
	"includes": true, "indexOf": true, "lastIndexOf": true, "join": true, "slice": true, "concat": true,
	"at": true, "keys": true, "values": true, "entries": true, "toString": true, "toLocaleString": true,
	"hasOwnProperty": true, "propertyIsEnumerable": true, "isPrototypeOf": true, "valueOf": true,
	"flat": true, "toReversed": true, "with": true, "toSpliced": true, "startsWith": true, "endsWith": true,
	"log": true, "info": true, "warn": true, "error": true, "debug": true, "trace": true, "dir": true, "table": true,
}

// globalName is the dotted name of a callee made of unshadowed globals
// ("Object.assign", "console.log", "structuredClone"), "" otherwise.
func (t *taint) globalName(e ast.Expression, sc *jsfront.Scope) string {
	switch x := e.(type) {
	case *ast.Identifier:
		n := x.Name.String()
		if sc.Lookup(n) != nil || t.isImported(n) {
			return ""
		}
		return n
	case *ast.DotExpression:
		if l := t.globalName(x.Left, sc); l != "" {
			return l + "." + x.Identifier.Name.String()
		}
	}
	return ""
}

// functions are the local functions e may name.
func (t *taint) functions(e ast.Expression, sc *jsfront.Scope) []ast.Expression {
	switch x := jsfront.Unwrap(e).(type) {
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
		return []ast.Expression{x}
	case *ast.Identifier:
		b := sc.Lookup(x.Name.String())
		if b == nil {
			return nil
		}
		if f := b.Func(); f != nil {
			return []ast.Expression{f}
		}
		var out []ast.Expression
		for _, s := range append(append([]src(nil), t.inits[b]...), t.assigns[b]...) {
			if len(s.path) > 0 || s.iter {
				continue
			}
			switch f := jsfront.Unwrap(s.e).(type) {
			case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
				out = append(out, f)
			}
		}
		return out
	case *ast.DotExpression:
		name := x.Identifier.Name.String()
		var out []ast.Expression
		lits := []*ast.ObjectLiteral{}
		for _, p := range t.eval(x.Left, sc) {
			if !p.held {
				lits = append(lits, t.lits[p]...)
			}
		}
		if o := t.r.model.Object(x.Left, sc); o != nil {
			lits = append(lits, o)
		}
		for _, o := range lits {
			for _, pr := range o.Value {
				if q, ok := pr.(*ast.PropertyKeyed); ok && !q.Computed {
					if k, _ := jsfront.PropKey(q.Key); k == name {
						switch f := q.Value.(type) {
						case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
							out = append(out, f)
						}
					}
				}
			}
		}
		return out
	}
	return nil
}

// call handles a call: a write through a builtin or a method, arguments
// given to a local function (its parameters), to a callback, or out of
// sight.
func (t *taint) call(c *ast.CallExpression, sc *jsfront.Scope) {
	at := t.r.span(c)
	args := c.ArgumentList
	arg := func(i int) ast.Expression {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	callee := jsfront.Unwrap(c.Callee)
	text := lazyText{t: t, n: c}
	switch g := t.globalName(callee, sc); g {
	case "Object.assign":
		keys := literalKeys(t.r, args[min(1, len(args)):])
		for _, p := range t.eval(arg(0), sc) {
			if !p.held {
				t.mutate(at, p, keys, text.s(" writes it"))
			}
		}
		for _, a := range args[min(1, len(args)):] {
			t.store(arg(0), t.eval(a, sc).member("*"), sc, at)
		}
		return
	case "Object.defineProperty", "Reflect.defineProperty", "Reflect.set", "Reflect.deleteProperty",
		"Object.defineProperties", "Object.setPrototypeOf", "Reflect.setPrototypeOf", "Object.prototype.__defineGetter__":
		key := t.key(arg(1), sc)
		switch g {
		case "Object.defineProperties":
			key = literalKeys(t.r, args[min(1, len(args)):])
		case "Object.setPrototypeOf", "Reflect.setPrototypeOf":
			key = "__proto__"
		}
		for _, p := range t.eval(arg(0), sc) {
			if !p.held {
				t.mutate(at, p, key, text.s(" writes it"))
			}
		}
		if g != "Reflect.deleteProperty" {
			for _, a := range args[min(2, len(args)):] {
				t.store(arg(0), t.eval(a, sc), sc, at)
			}
		}
		return
	case jslex.MetaVar:
		return // import(spec): reads
	case "eval", "Function", "globalThis.eval", "globalThis.Function":
		t.mutate(at, place{root: t.proto}, "", text.s(" runs code this checker cannot read"))
		return
	case "":
	default:
		if harmless[g] || strings.HasPrefix(g, "console.") || strings.HasPrefix(g, "Math.") {
			return
		}
		if fn, how, ok := cutLast(g); ok && (how == "call" || how == "apply" || how == "bind") {
			if _, method, _ := cutLast(fn); harmless[fn] || readers[method] {
				return // Object.prototype.hasOwnProperty.call(tools, k)
			}
		}
		t.leak(args, sc, at, func() string { return text.s(" is given it") })
		return
	}
	if d, ok := callee.(*ast.DotExpression); ok {
		name := d.Identifier.Name.String()
		recv := t.eval(d.Left, sc)
		if fns := t.functions(callee, sc); len(fns) > 0 {
			t.callLocal(fns, args, sc)
			return
		}
		switch name {
		case "call", "apply", "bind":
			if g := t.globalName(d.Left, sc); g != "" {
				last := g[strings.LastIndexByte(g, '.')+1:]
				if harmless[g] || readers[last] {
					return // Object.prototype.hasOwnProperty.call(tools, k)
				}
			}
			if fns := t.functions(d.Left, sc); len(fns) > 0 && name == "call" && len(args) > 0 {
				t.leak(args[:1], sc, at, func() string { return text.s(" makes it `this` of a function") })
				t.callLocal(fns, args[1:], sc)
				return
			}
		}
		if mutators[name] {
			for _, p := range recv {
				if !p.held {
					t.mutate(at, p, "", "`"+t.code(d)+"(…)` changes it")
				}
			}
			var v pset
			for _, a := range args {
				v = v.add(t.eval(a, sc)...)
			}
			t.store(d.Left, v, sc, at)
			return
		}
		if name == "then" && len(recv) > 0 {
			for _, f := range t.functions(arg(0), sc) {
				t.addParam(paramKey{f, 0}, recv)
			}
			return
		}
		if i, ok := callbacks[name]; ok && len(recv) > 0 {
			if fns := t.functions(arg(0), sc); len(fns) > 0 {
				for _, f := range fns {
					t.addParam(paramKey{f, i}, recv.member("*"))
					if name == "sort" || name == "toSorted" {
						t.addParam(paramKey{f, 1}, recv.member("*"))
					}
				}
				t.leak(args[1:], sc, at, func() string { return text.s(" is given it") })
				return
			}
			if g := t.globalName(arg(0), sc); harmless[g] {
				return // Object.values(tools).forEach(Object.freeze)
			}
			t.leakSet(recv, at, func() string { return text.s(" gives its elements to a function this checker cannot follow") })
			return
		}
		if _, ok := callbacks[name]; ok || readers[name] {
			return
		}
		t.leak(args, sc, at, func() string { return text.s(" is given it") })
		return
	}
	if fns := t.functions(callee, sc); len(fns) > 0 {
		t.callLocal(fns, args, sc)
		return
	}
	t.leak(args, sc, at, func() string { return text.s(" is given it") })
}

func (t *taint) addParam(k paramKey, v pset) {
	if len(v) == 0 {
		return
	}
	if nv := t.params[k].add(v...); len(nv) != len(t.params[k]) {
		t.params[k] = nv
		t.changed = true
	}
}

// callLocal gives the arguments to the parameters of fns.
func (t *taint) callLocal(fns []ast.Expression, args []ast.Expression, sc *jsfront.Scope) {
	for _, f := range fns {
		var all pset // `arguments`
		for _, a := range args {
			if sp, ok := a.(*ast.SpreadElement); ok {
				a = sp.Expression
			}
			all = all.add(t.eval(a, sc)...)
		}
		t.addParam(paramKey{f, -1}, all.heldAll())
		restAt := restIndex(f)
		for i, a := range args {
			idx := i
			if restAt >= 0 && i >= restAt {
				idx = restAt
			}
			if sp, ok := a.(*ast.SpreadElement); ok {
				v := t.eval(sp.Expression, sc).member("*")
				for j := i; j < paramCount(f); j++ {
					t.addParam(paramKey{f, j}, v)
				}
				if restAt >= 0 {
					t.addParam(paramKey{f, restAt}, v.heldAll())
				}
				continue
			}
			v := t.eval(a, sc)
			if restAt >= 0 && i >= restAt {
				v = v.heldAll()
			}
			t.addParam(paramKey{f, idx}, v)
		}
	}
}

func paramList(f ast.Expression) *ast.ParameterList {
	switch x := f.(type) {
	case *ast.FunctionLiteral:
		return x.ParameterList
	case *ast.ArrowFunctionLiteral:
		return x.ParameterList
	}
	return nil
}

func paramCount(f ast.Expression) int {
	if pl := paramList(f); pl != nil {
		return len(pl.List)
	}
	return 0
}

func restIndex(f ast.Expression) int {
	if pl := paramList(f); pl != nil && pl.Rest != nil {
		return len(pl.List)
	}
	return -1
}

// callValue is what a call may return of the protected values.
func (t *taint) callValue(c *ast.CallExpression, sc *jsfront.Scope) pset {
	callee := jsfront.Unwrap(c.Callee)
	args := c.ArgumentList
	arg := func(i int) ast.Expression {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch g := t.globalName(callee, sc); g {
	case "Object.freeze", "Object.seal", "Object.preventExtensions", "Promise.resolve":
		return t.eval(arg(0), sc)
	case "Object.assign":
		v := t.eval(arg(0), sc)
		for _, a := range args[min(1, len(args)):] {
			v = v.add(t.eval(a, sc).member("*").heldAll()...)
		}
		return v
	case "Object.values", "Object.entries", "Object.getOwnPropertyDescriptors", "Object.fromEntries", "Array.from", "Promise.all":
		return t.eval(arg(0), sc).member("*").heldAll()
	case "Object.getOwnPropertyDescriptor", "Reflect.getOwnPropertyDescriptor":
		return t.eval(arg(0), sc).member(t.key(arg(1), sc)).heldAll()
	case "Reflect.get":
		return t.eval(arg(0), sc).member(t.key(arg(1), sc))
	case "Object.getPrototypeOf", "Reflect.getPrototypeOf":
		return pset{{root: t.proto}}
	case jslex.MetaVar: // import(spec): the module's namespace
		if spec, ok := t.r.model.String(arg(0), sc); ok {
			return pset{{root: t.importRoot(spec, "*")}}
		}
		return pset{{root: anyRoot}} // any module, this one included
	case "Array.of":
		var v pset
		for _, a := range args {
			v = v.add(t.eval(a, sc)...)
		}
		return v.heldAll()
	case "":
	default:
		return nil
	}
	if d, ok := callee.(*ast.DotExpression); ok {
		recv := t.eval(d.Left, sc)
		switch d.Identifier.Name.String() {
		case "find", "findLast", "at", "pop", "shift", "get":
			return recv.member("*")
		case "filter", "slice", "concat", "flat", "flatMap", "map", "toSorted", "toReversed", "toSpliced",
			"with", "splice", "values", "entries":
			v := recv.member("*")
			for _, a := range args {
				v = v.add(t.eval(a, sc).member("*")...)
				v = v.add(t.eval(a, sc)...)
			}
			return v.heldAll()
		case "valueOf", "sort", "reverse", "fill", "copyWithin":
			return recv
		}
	}
	var out pset
	for _, f := range t.functions(callee, sc) {
		out = out.add(t.returns(f)...)
	}
	return out
}

// returns is what a local function may return, once per round (a
// recursive call reads the previous round's answer).
func (t *taint) returns(f ast.Expression) pset {
	if v, ok := t.rets[f]; ok || t.inRet[f] {
		return v
	}
	t.inRet[f] = true
	var out pset
	t.r.model.Returns(f, func(e ast.Expression, sc *jsfront.Scope) {
		out = out.add(t.eval(e, sc)...)
	})
	t.inRet[f] = false
	t.rets[f] = out
	return out
}

// literalKeys is the one constant key the object literals among args
// set, "*" when none or several.
func literalKeys(r *reader, args []ast.Expression) string {
	key := ""
	for _, a := range args {
		o, ok := a.(*ast.ObjectLiteral)
		if !ok {
			return "*"
		}
		for _, pr := range o.Value {
			var k string
			switch q := pr.(type) {
			case *ast.PropertyKeyed:
				var ok bool
				if k, ok = r.objKey(q.Key, q.Computed); !ok {
					return "*"
				}
			case *ast.PropertyShort:
				k = q.Name.Name.String()
			default:
				return "*"
			}
			if key != "" && key != k {
				return "*"
			}
			key = k
		}
	}
	if key == "" {
		return "*"
	}
	return key
}

// importRoot is the root of what module from exports as name ("*": its
// namespace).
func (t *taint) importRoot(from, name string) int32 {
	want := root{from: from, name: name}
	for i, r := range t.roots {
		if r == want {
			return int32(i)
		}
	}
	return t.addRoot(want)
}

// checkDef reads a definition: a literal's requires and needsApproval
// must be known statically, and a Proxy decides every read. A
// definition that is no literal at all (a call, an instance) is not read:
// the card shows it as unknown, which is what it is.
func (t *taint) checkDef(e ast.Expression, pl place) {
	if o, ok := t.resolveConst(e).(*ast.ObjectLiteral); ok {
		t.checkProps(o, pl)
		return
	}
	t.proxy(e, pl)
}

// resolveConst follows top-level constants and Object.freeze.
func (t *taint) resolveConst(e ast.Expression) ast.Expression {
	for hops := 0; hops < maxDepth; hops++ {
		switch x := e.(type) {
		case *ast.Identifier:
			b := t.r.binding(x.Name.String())
			if b == nil || b.Destructured() || b.Init() == nil {
				return e
			}
			e = b.Init()
		case *ast.CallExpression:
			if !isFreeze(x) || len(x.ArgumentList) != 1 {
				return e
			}
			e = x.ArgumentList[0]
		default:
			return e
		}
	}
	return e
}

// checkProps reports requires and needsApproval values of a definition
// that are not statically known.
func (t *taint) checkProps(o *ast.ObjectLiteral, pl place) {
	for _, pr := range o.Value {
		q, ok := pr.(*ast.PropertyKeyed)
		if !ok || q.Kind != ast.PropertyKindValue {
			continue
		}
		key, ok := t.r.objKey(q.Key, q.Computed)
		if !ok {
			continue
		}
		v := t.resolveConst(q.Value)
		switch key {
		case "requires":
			arr, ok := v.(*ast.ArrayLiteral)
			if !ok {
				t.mutate(t.r.span(q.Value), pl, key, fmt.Sprintf("`%s` is not a list of strings known statically", t.code(q.Value)))
				continue
			}
			for _, el := range arr.Value {
				if _, spread := el.(*ast.SpreadElement); spread {
					continue // reported by spread unless a constant list
				}
				if _, ok := t.r.model.String(el, t.r.top); !ok || el == nil {
					t.mutate(t.r.span(el), pl, key, fmt.Sprintf("`%s` is not a string known statically", t.code(el)))
				}
			}
		case "needsApproval":
			switch v.(type) {
			case *ast.BooleanLiteral, *ast.FunctionLiteral, *ast.ArrowFunctionLiteral,
				*ast.ObjectLiteral, *ast.ArrayLiteral, *ast.StringLiteral, *ast.TemplateLiteral:
			default:
				t.mutate(t.r.span(q.Value), pl, key, fmt.Sprintf("`%s` is not known statically", t.code(q.Value)))
			}
		}
	}
}

// protectExports registers every exported map and definition, then runs
// the search.
func (r *reader) protectExports() {
	t := r.taint
	// Every imported binding: a write through it changes what another
	// module exports (a caller that reads both follows From and Name).
	for _, imp := range r.p.imports {
		for _, n := range imp.Names {
			if r.binding(n.Local) == nil {
				pl := place{root: t.addRoot(root{from: imp.From, name: n.Imported})}
				t.byImport[n.Local] = t.byImport[n.Local].add(pl)
			}
		}
	}
	for i := range r.m.Exports {
		ex := &r.m.Exports[i]
		if ex.Star || ex.From != "" {
			continue
		}
		e := r.exportExpr(ex)
		if e == nil {
			continue
		}
		if _, ok := r.m.Maps[ex.Name]; ok {
			pl := place{root: t.addRoot(root{export: ex.Name, isMap: true})}
			t.protect(e, pl, 0)
			if lit, ok := t.resolveConst(e).(*ast.ObjectLiteral); ok {
				for _, pr := range lit.Value {
					switch q := pr.(type) {
					case *ast.PropertyKeyed:
						if key, ok := r.objKey(q.Key, q.Computed); ok && q.Kind == ast.PropertyKindValue {
							t.checkDef(q.Value, pl.member(key))
						}
					case *ast.PropertyShort:
						id := q.Name
						t.checkDef(&id, pl.member(id.Name.String()))
					}
				}
			}
			for _, pr := range r.added[ex.Local] {
				t.protect(pr.value, pl.member(pr.key), 0)
				t.checkDef(pr.value, pl.member(pr.key))
			}
			t.proxy(e, pl)
		}
		if d := r.m.Defs[ex.Name]; d != nil && d.Def {
			pl := place{root: t.addRoot(root{export: ex.Name})}
			t.protect(e, pl, 0)
			t.checkDef(e, pl)
		}
	}
	t.run()
	if r.relaxedBy != "" {
		t.unparsed()
	}
	sortMutations(t.muts)
	r.m.Mutations = t.muts
}

// sensitive are the globals through which a function can reach the
// tools without naming them.
var sensitive = map[string]bool{
	"Object": true, "Reflect": true, "globalThis": true, "eval": true, "Function": true, "__proto__": true,
	"prototype": true, "arguments": true, "window": true, "self": true, "global": true, "Proxy": true,
}

// unparsed covers the function bodies goja could not parse (the module
// was read with them emptied): a body that names a protected binding, an
// alias of one, an import used as an entry or a global that reaches
// them, or that uses `this` inside a protected literal, may write them;
// so may a function of those given a protected value.
func (t *taint) unparsed() {
	p := t.r.p
	names := map[string]pset{}
	for b, v := range t.val {
		if len(v) == 0 {
			continue
		}
		if id := b.Ident(); id != nil {
			names[id.Name.String()] = names[id.Name.String()].add(v...)
		}
	}
	for n, v := range t.byImport {
		names[n] = names[n].add(v...)
	}
	why := " is used in a function whose syntax this checker cannot read (" + t.r.relaxedBy + "): it may write the tools"
	for _, bl := range p.blanked {
		for i := bl[0]; i < bl[1] && i < len(p.toks); i++ {
			tok := p.toks[i]
			if tok.Kind != jslex.Ident {
				continue
			}
			name := tok.Text(p.src)
			at := Span{Start: int(tok.Start), End: int(tok.End)}
			switch {
			case names[name] != nil:
				for _, pl := range names[name] {
					pl.held = false
					t.mutate(at, pl, "", "`"+name+"`"+why)
				}
			case sensitive[name]:
				t.mutate(at, place{root: t.proto}, "", "`"+name+"`"+why)
			case name == "this":
				for lit, ps := range t.byLit {
					if s := t.r.span(lit); s.Start <= at.Start && at.End <= s.End {
						for _, pl := range ps {
							t.mutate(at, pl, "", "`this`"+why)
						}
					}
				}
			}
		}
	}
	for k, v := range t.params {
		if len(v) == 0 || !t.blankedBody(k.fn) {
			continue
		}
		for _, pl := range v {
			pl.held = false
			t.mutate(t.r.span(k.fn), pl, "", "it is given to a function whose syntax this checker cannot read ("+t.r.relaxedBy+"), which may change it")
		}
	}
	sortMutations(t.muts)
}

// blankedBody reports a function whose body was emptied to parse.
func (t *taint) blankedBody(fn ast.Expression) bool {
	var body ast.Node
	switch f := fn.(type) {
	case *ast.FunctionLiteral:
		body = f.Body
	case *ast.ArrowFunctionLiteral:
		if b, ok := f.Body.(*ast.BlockStatement); ok {
			body = b
		}
	}
	if body == nil {
		return false
	}
	s := t.r.span(body)
	for _, bl := range t.r.p.blanked {
		if bl[0] < bl[1] && bl[0] < len(t.r.p.toks) && int(t.r.p.toks[bl[0]].Start) >= s.Start && int(t.r.p.toks[bl[0]].Start) < s.End {
			return true
		}
	}
	return false
}

// proxy reports a map given as a Proxy: what every read returns is the
// handler's.
func (t *taint) proxy(e ast.Expression, pl place) {
	if n, ok := t.resolveConst(e).(*ast.NewExpression); ok {
		if id, ok := n.Callee.(*ast.Identifier); ok && id.Name.String() == "Proxy" && t.r.binding("Proxy") == nil {
			t.mutate(t.r.span(n), pl, "", "`new Proxy(…)` decides what every read of it returns")
		}
	}
}

// exportExpr is the expression an export's value is: its local binding,
// or the default export's expression.
func (r *reader) exportExpr(ex *Export) ast.Expression {
	if ex.Local == "" && ex.Name == "default" {
		if vs, ok := r.statementAt(r.p.defaultAt).(*ast.VariableStatement); ok && len(vs.List) == 1 {
			return vs.List[0].Initializer
		}
		return nil
	}
	if ex.Local == "" {
		return nil
	}
	return r.ident(ex.Local, ex.Span.Start)
}

// objKey is a property key's string (a computed one when constant).
func (r *reader) objKey(k ast.Expression, computed bool) (string, bool) {
	if !computed {
		return jsfront.PropKey(k)
	}
	if r.model == nil {
		return "", false
	}
	return r.model.String(k, r.top)
}

func sortMutations(ms []Mutation) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.Span != b.Span {
			if a.Span.Start != b.Span.Start {
				return a.Span.Start < b.Span.Start
			}
			return a.Span.End < b.Span.End
		}
		if x, y := wild(a.Path), wild(b.Path); x != y {
			return x < y // the most precise first
		}
		if len(a.Path) != len(b.Path) {
			return len(a.Path) > len(b.Path)
		}
		if x, y := strings.Join(a.Path, "."), strings.Join(b.Path, "."); x != y {
			return x < y
		}
		return a.Export+a.From+a.Name+a.Reason < b.Export+b.From+b.Name+b.Reason
	})
}

func sortBindings(bs []*jsfront.Binding, r *reader) {
	at := func(b *jsfront.Binding) int {
		if id := b.Ident(); id != nil {
			return r.off(id.Idx0())
		}
		if n := b.Node(); n != nil {
			return r.off(n.Idx0())
		}
		return -1
	}
	sort.SliceStable(bs, func(i, j int) bool { return at(bs[i]) < at(bs[j]) })
}

// code is the text of a node for a reason, whitespace folded, cut at 80
// characters.
func (t *taint) code(n ast.Node) string {
	sp := t.r.span(n)
	c := strings.Join(strings.Fields(string(t.r.src[sp.Start:sp.End])), " ")
	if rs := []rune(c); len(rs) > 80 {
		c = string(rs[:77]) + "…"
	}
	return c
}

// wild counts the keys not known statically in a path.
func wild(p []string) int {
	n := 0
	for _, k := range p {
		if k == "*" {
			n++
		}
	}
	return n
}

// lazyText quotes a node's code only when a reason needs it.
type lazyText struct {
	t *taint
	n ast.Node
}

func (l lazyText) s(rest string) string { return "`" + l.t.code(l.n) + "`" + rest }

// cutLast splits a dotted name at its last dot.
func cutLast(g string) (string, string, bool) {
	i := strings.LastIndexByte(g, '.')
	if i < 0 {
		return "", g, false
	}
	return g[:i], g[i+1:], true
}
