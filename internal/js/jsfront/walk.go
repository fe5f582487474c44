package jsfront

import (
	"strconv"

	"github.com/dop251/goja/ast"
	gtoken "github.com/dop251/goja/token"
)

// DeclKind is how a name is declared.
type DeclKind uint8

// The kinds of declaration.
const (
	DeclConst DeclKind = iota
	DeclLet
	DeclVar
	DeclParam
	DeclFunc
	DeclClass
)

// Binding is one declared name: how it is declared, its initializer,
// and what the walk saw done to it (assignments, mutations), which the
// evaluator reads. A page of 2 MB declares about 90,000: what few
// bindings have is kept apart (bindingRare), so that a binding is 64
// bytes.
type Binding struct {
	// init is the initializer, nil when none; for DeclFunc, the
	// function (*ast.FunctionLiteral).
	init  ast.Expression
	scope *Scope
	// id is the name where it is declared: a function or class
	// declaration's name (Node), or the identifier of a variable or
	// parameter (Ident); nil for `arguments`.
	id *ast.Identifier

	// For the value-set evaluator (values.go).
	owner *fnInfo      // DeclParam: the function
	rare  *bindingRare // nil: none of its fields is set
	pidx  int32        // DeclParam: the parameter's index
	decl  DeclKind

	destructured bool // const { key: name } = init
	evaluating   bool
	rest         bool // DeclParam: ...rest
	opaque       bool // changed in a way not followed (+=, name[k] = …, push)
	escaped      bool // a function used other than by calling it
}

// name is the name as declared.
func (b *Binding) name() string {
	if b.id == nil {
		return "arguments"
	}
	return b.id.Name.String()
}

// bindingRare is what few bindings have.
type bindingRare struct {
	key         string         // destructured: the key read
	keyDefault  ast.Expression // destructured: the key's default
	outer       []pathStep     // destructured: the keys read before key
	iterOf      ast.Expression // for (x of iterOf)
	iterSc      *Scope
	pdef        ast.Expression          // DeclParam: the parameter's default
	cls         *ast.ClassLiteral       // DeclClass
	assigns     []scopedExpr            // name = …
	propAssigns map[string][]scopedExpr // name.key = …
	memo        vset
}

// noRare is the bindingRare of a binding without one (read only).
var noRare bindingRare

// extra returns b's rare fields, for reading.
func (b *Binding) extra() *bindingRare {
	if b.rare != nil {
		return b.rare
	}
	return &noRare
}

// setExtra returns b's own rare fields, for writing.
func (b *Binding) setExtra() *bindingRare {
	if b.rare == nil {
		b.rare = &bindingRare{}
	}
	return b.rare
}

type scopedExpr struct {
	e  ast.Expression
	sc *Scope
	// flow: where a plain `name = …` stands (assignments only): its
	// offset, and whether a loop of its function encloses it.
	pos    int
	inLoop bool
	cond   bool // under a branch or loop: it may not run
}

// Scope is the names declared in one scope, in the order first
// declared (a name declared again keeps its place).
type Scope struct {
	parent *Scope
	binds  []*Binding
	// index finds a name among binds once there are more than
	// indexFrom of them (a linear search is cheaper below).
	index map[string]*Binding
	this  *thisCtx // what `this` is here, nil: as in the parent
	// fn is the function whose body this scope is (not an arrow):
	// `arguments` and a function expression's own name are declared in
	// it when first looked up (most functions use neither).
	fn *ast.FunctionLiteral
	// unit is the function (or arrow) whose code this scope is part of,
	// nil for the top level: reaching definitions are followed within one.
	unit ast.Node
}

const indexFrom = 8

func newScope(parent *Scope) *Scope {
	if parent == nil {
		return &Scope{}
	}
	return &Scope{parent: parent, unit: parent.unit}
}

func (s *Scope) lookup(name string) *Binding {
	for ; s != nil; s = s.parent {
		if b := s.own(name); b != nil {
			return b
		}
	}
	return nil
}

// own is the binding of name declared in s, nil when none.
func (s *Scope) own(name string) *Binding {
	if s.index != nil {
		if b := s.index[name]; b != nil {
			return b
		}
	} else {
		for _, b := range s.binds {
			if b.name() == name {
				return b
			}
		}
	}
	if s.fn != nil {
		return s.implicit(name)
	}
	return nil
}

// implicit declares `arguments` or the function's own name on first
// use, as if declared before the parameters (which shadow them).
func (s *Scope) implicit(name string) *Binding {
	switch {
	case name == "arguments":
		b := &Binding{decl: DeclParam}
		s.declare(name, b)
		return b
	case s.fn.Name != nil && s.fn.Name.Name.String() == name:
		b := &Binding{decl: DeclFunc, id: s.fn.Name, init: s.fn}
		s.declare(name, b)
		return b
	}
	return nil
}

func (s *Scope) declare(name string, b *Binding) {
	b.scope = s
	if s.index != nil {
		if _, seen := s.index[name]; !seen {
			s.binds = append(s.binds, b)
		} else {
			s.replace(name, b)
		}
		s.index[name] = b
		return
	}
	for i, old := range s.binds {
		if old.name() == name {
			s.binds[i] = b
			return
		}
	}
	s.binds = append(s.binds, b)
	if len(s.binds) > indexFrom {
		s.index = make(map[string]*Binding, len(s.binds))
		for _, b := range s.binds {
			s.index[b.name()] = b
		}
	}
}

// replace puts b in the place of the binding named name.
func (s *Scope) replace(name string, b *Binding) {
	for i, old := range s.binds {
		if old.name() == name {
			s.binds[i] = b
			return
		}
	}
}

// declareList hoists the declarations of a statement list into sc.
func (a *Model) declareList(list []ast.Statement, sc *Scope) {
	for _, s := range list {
		switch x := s.(type) {
		case *ast.VariableStatement:
			for _, b := range x.List {
				a.declareTarget(b.Target, b.Initializer, DeclVar, sc)
			}
		case *ast.LexicalDeclaration:
			kind := DeclLet
			if x.Token == gtoken.CONST {
				kind = DeclConst
			}
			for _, b := range x.List {
				a.declareTarget(b.Target, b.Initializer, kind, sc)
			}
		case *ast.FunctionDeclaration:
			if x.Function.Name != nil {
				sc.declare(x.Function.Name.Name.String(), &Binding{decl: DeclFunc, id: x.Function.Name, init: x.Function})
			}
		case *ast.ClassDeclaration:
			if x.Class.Name != nil {
				sc.declare(x.Class.Name.Name.String(), &Binding{decl: DeclClass, id: x.Class.Name, rare: &bindingRare{cls: x.Class}})
			}
		}
	}
}

// kindOf is the declaration kind of a let or const token.
func kindOf(tok gtoken.Token) DeclKind {
	if tok == gtoken.CONST {
		return DeclConst
	}
	return DeclLet
}

// declareTarget declares the names bound by a binding target.
func (a *Model) declareTarget(t ast.Expression, init ast.Expression, kind DeclKind, sc *Scope) {
	a.declarePattern(t, Binding{decl: kind, init: init}, sc, nil)
}

// pathStep is one level of a nested destructuring: the key read, and
// the default that replaces undefined.
type pathStep struct {
	key string
	def ast.Expression
}

// declarePattern declares the names a target binds, each a copy of tmpl
// (its kind, initializer, or parameter) that reads the path of keys from
// the value to the name (const { api: { base } } = CFG). A pattern with
// nothing to read from (no initializer, not a parameter) declares plain
// names.
func (a *Model) declarePattern(t ast.Expression, tmpl Binding, sc *Scope, outer []pathStep) {
	follow := tmpl.init != nil || tmpl.decl == DeclParam
	nested := func(target ast.Expression, step pathStep) {
		if !follow {
			a.declarePattern(target, tmpl, sc, nil)
			return
		}
		a.declarePattern(target, tmpl, sc, append(append([]pathStep(nil), outer...), step))
	}
	plain := func(target ast.Expression) {
		a.declarePattern(target, Binding{decl: tmpl.decl}, sc, nil)
	}
	switch x := t.(type) {
	case *ast.Identifier:
		b := tmpl
		b.id = x
		if tmpl.rare != nil {
			r := *tmpl.rare // each name its own
			b.rare = &r
		}
		if len(outer) > 0 {
			last := outer[len(outer)-1]
			b.destructured = tmpl.decl != DeclParam
			r := b.setExtra()
			r.key, r.keyDefault, r.outer = last.key, last.def, outer[:len(outer)-1]
		}
		sc.declare(x.Name.String(), &b)
	case *ast.ObjectPattern:
		for _, p := range x.Properties {
			switch q := p.(type) {
			case *ast.PropertyShort:
				nested(&q.Name, pathStep{q.Name.Name.String(), q.Initializer})
			case *ast.PropertyKeyed:
				key, ok := propKey(q.Key)
				target := q.Value
				var def ast.Expression
				if as, isAssign := target.(*ast.AssignExpression); isAssign {
					target, def = as.Left, as.Right
				}
				if ok && !q.Computed {
					nested(target, pathStep{key, def})
				} else {
					plain(target)
				}
			}
		}
		if x.Rest != nil {
			plain(x.Rest)
		}
	case *ast.ArrayPattern:
		for i, e := range x.Elements {
			if as, isAssign := e.(*ast.AssignExpression); isAssign {
				nested(as.Left, pathStep{strconv.Itoa(i), as.Right})
			} else if e != nil {
				nested(e, pathStep{strconv.Itoa(i), nil})
			}
		}
		if x.Rest != nil {
			plain(x.Rest)
		}
	case *ast.AssignExpression: // a default value in a pattern
		plain(x.Left)
	case *ast.Binding:
		plain(x.Target)
	}
}

func propKey(k ast.Expression) (string, bool) {
	switch x := k.(type) {
	case *ast.StringLiteral:
		return x.Value.String(), true
	case *ast.Identifier:
		return x.Name.String(), true
	case *ast.NumberLiteral:
		return numString(x), true
	}
	return "", false
}

func (a *Model) declareParams(pl *ast.ParameterList, sc *Scope, owner *fnInfo) {
	if pl == nil {
		return
	}
	for i, b := range pl.List {
		a.declareParam(b.Target, i, b.Initializer, owner, sc)
	}
	if pl.Rest != nil {
		a.declareTarget(pl.Rest, nil, DeclParam, sc)
		if id, ok := pl.Rest.(*ast.Identifier); ok {
			if b := sc.own(id.Name.String()); b != nil {
				b.owner, b.rest = owner, true
			}
		}
	}
}

// declareParam declares the names of parameter i: a name, or the names
// of a pattern ({ baseUrl = API } = {}), read from the arguments.
func (a *Model) declareParam(t ast.Expression, i int, def ast.Expression, owner *fnInfo, sc *Scope) {
	tmpl := Binding{decl: DeclParam, owner: owner, pidx: int32(i)}
	if def != nil {
		tmpl.rare = &bindingRare{pdef: def}
	}
	a.declarePattern(t, tmpl, sc, nil)
}

func unwrap(e ast.Expression) ast.Expression {
	for {
		switch x := e.(type) {
		case *ast.OptionalChain:
			e = x.Expression
		case *ast.Optional:
			e = x.Expression
		case *ast.SequenceExpression:
			if len(x.Sequence) == 0 {
				return e
			}
			e = x.Sequence[len(x.Sequence)-1]
		default:
			return e
		}
	}
}

func (a *Model) stmts(list []ast.Statement, sc *Scope) {
	for _, s := range list {
		a.stmt(s, sc)
	}
}

func (a *Model) block(b *ast.BlockStatement, sc *Scope) {
	if b == nil {
		return
	}
	inner := newScope(sc)
	a.declareList(b.List, inner)
	a.stmts(b.List, inner)
}

func (a *Model) stmt(s ast.Statement, sc *Scope) {
	if a.visit != nil && s != nil {
		a.visit.Stmt(s, sc)
	}
	switch x := s.(type) {
	case nil:
	case *ast.BlockStatement:
		a.block(x, sc)
	case *ast.ExpressionStatement:
		a.expr(x.Expression, sc)
	case *ast.VariableStatement:
		a.bindings(x.List, sc)
	case *ast.LexicalDeclaration:
		a.bindings(x.List, sc)
	case *ast.FunctionDeclaration:
		if fi := a.function(x.Function, sc, nil); fi != nil && x.Function.Name != nil {
			fi.bind = sc.lookup(x.Function.Name.Name.String())
		}
	case *ast.ClassDeclaration:
		a.class(x.Class, sc)
	case *ast.IfStatement:
		a.expr(x.Test, sc)
		a.cond++
		a.stmt(x.Consequent, sc)
		a.stmt(x.Alternate, sc)
		a.cond--
	case *ast.ReturnStatement:
		if n := len(a.fnStack); n > 0 {
			a.fnStack[n-1].rets = append(a.fnStack[n-1].rets, scopedExpr{e: x.Argument, sc: sc})
		}
		a.expr(x.Argument, sc)
	case *ast.ThrowStatement:
		a.expr(x.Argument, sc)
	case *ast.TryStatement:
		a.cond++
		defer func() { a.cond-- }()
		a.block(x.Body, sc)
		if x.Catch != nil {
			inner := newScope(sc)
			if x.Catch.Parameter != nil {
				a.declareTarget(x.Catch.Parameter, nil, DeclParam, inner)
			}
			a.block(x.Catch.Body, inner)
		}
		a.block(x.Finally, sc)
	case *ast.ForStatement:
		inner := newScope(sc)
		switch init := x.Initializer.(type) {
		case *ast.ForLoopInitializerExpression:
			a.expr(init.Expression, inner)
		case *ast.ForLoopInitializerVarDeclList:
			for _, b := range init.List {
				a.declareTarget(b.Target, b.Initializer, DeclVar, inner)
			}
			a.bindings(init.List, inner)
		case *ast.ForLoopInitializerLexicalDecl:
			for _, b := range init.LexicalDeclaration.List {
				a.declareTarget(b.Target, b.Initializer, kindOf(init.LexicalDeclaration.Token), inner)
			}
			a.bindings(init.LexicalDeclaration.List, inner)
		}
		a.loops++
		a.expr(x.Test, inner)
		a.expr(x.Update, inner)
		a.stmt(x.Body, inner)
		a.loops--
	case *ast.ForInStatement:
		inner := a.forInto(x.Into, sc)
		a.expr(x.Source, sc)
		a.loops++
		a.stmt(x.Body, inner)
		a.loops--
	case *ast.ForOfStatement:
		inner := a.forInto(x.Into, sc)
		for _, b := range inner.binds {
			r := b.setExtra()
			r.iterOf, r.iterSc = x.Source, sc
		}
		a.expr(x.Source, sc)
		a.loops++
		a.stmt(x.Body, inner)
		a.loops--
	case *ast.WhileStatement:
		a.loops++
		a.expr(x.Test, sc)
		a.stmt(x.Body, sc)
		a.loops--
	case *ast.DoWhileStatement:
		a.loops++
		a.stmt(x.Body, sc)
		a.expr(x.Test, sc)
		a.loops--
	case *ast.LabelledStatement:
		a.cond++
		a.stmt(x.Statement, sc)
		a.cond--
	case *ast.SwitchStatement:
		a.cond++
		defer func() { a.cond-- }()
		a.expr(x.Discriminant, sc)
		inner := newScope(sc)
		for _, c := range x.Body {
			a.declareList(c.Consequent, inner)
		}
		for _, c := range x.Body {
			a.expr(c.Test, inner)
			a.stmts(c.Consequent, inner)
		}
	case *ast.WithStatement:
		a.expr(x.Object, sc)
		a.stmt(x.Body, newScope(nil)) // anything may be shadowed: resolve nothing via scope
	}
}

func (a *Model) forInto(into ast.ForInto, sc *Scope) *Scope {
	inner := newScope(sc)
	switch x := into.(type) {
	case *ast.ForIntoVar:
		a.declareTarget(x.Binding.Target, nil, DeclVar, inner)
	case *ast.ForDeclaration:
		a.declareTarget(x.Target, nil, DeclLet, inner)
	case *ast.ForIntoExpression:
		a.opaque(x.Expression, sc) // for (x of list) with an outer x: not followed
		a.expr(x.Expression, sc)
	}
	return inner
}

func (a *Model) bindings(list []*ast.Binding, sc *Scope) {
	for _, b := range list {
		if id, ok := b.Target.(*ast.Identifier); ok && b.Initializer != nil {
			defer func(name string, init ast.Expression) {
				if fi := a.fns[init]; fi != nil {
					fi.bind = sc.lookup(name)
				}
			}(id.Name.String(), unwrap(b.Initializer))
		}
		a.hooks.Binding(b, sc)
		a.pattern(b.Target, sc)
		a.expr(b.Initializer, sc)
	}
}

// pattern walks default values inside a binding pattern.
func (a *Model) pattern(t ast.Expression, sc *Scope) {
	switch x := t.(type) {
	case *ast.ObjectPattern:
		for _, p := range x.Properties {
			switch q := p.(type) {
			case *ast.PropertyShort:
				a.expr(q.Initializer, sc)
			case *ast.PropertyKeyed:
				if q.Computed {
					a.expr(q.Key, sc)
				}
				a.pattern(q.Value, sc)
			}
		}
	case *ast.ArrayPattern:
		for _, e := range x.Elements {
			a.pattern(e, sc)
		}
	case *ast.AssignExpression:
		a.expr(x.Right, sc)
	}
}

// function walks a function; this is what `this` is in it (nil: unknown,
// a plain function called by whoever).
func (a *Model) function(f *ast.FunctionLiteral, sc *Scope, this *thisCtx) *fnInfo {
	if f == nil {
		return nil
	}
	inner := newScope(sc)
	if this == nil {
		this = &thisCtx{}
	}
	inner.this = this
	inner.fn = f // its own name and `arguments`, when used
	inner.unit = f
	loops, cond := a.loops, a.cond
	a.loops, a.cond = 0, 0
	defer func() { a.loops, a.cond = loops, cond }()
	fi := &fnInfo{node: f, params: f.ParameterList, inner: inner}
	a.fns[f] = fi
	a.declareParams(f.ParameterList, inner, fi)
	a.params(f.ParameterList, inner)
	if f.Body != nil {
		a.fnStack = append(a.fnStack, fi)
		a.declareList(f.Body.List, inner)
		a.hooks.Func(f, inner)
		a.stmts(f.Body.List, inner)
		a.fnStack = a.fnStack[:len(a.fnStack)-1]
	}
	return fi
}

func (a *Model) params(pl *ast.ParameterList, sc *Scope) {
	if pl == nil {
		return
	}
	for _, b := range pl.List {
		a.pattern(b.Target, sc)
		a.expr(b.Initializer, sc)
	}
}

func (a *Model) class(c *ast.ClassLiteral, sc *Scope) {
	if c == nil {
		return
	}
	a.expr(c.SuperClass, sc)
	ci := &classInfo{node: c, assigns: map[string][]scopedExpr{}}
	a.classes[c] = ci
	cs := newScope(sc)
	cs.this = &thisCtx{cls: ci, sc: cs}
	ci.sc = cs
	static := newScope(sc)
	static.this = &thisCtx{}
	for _, el := range c.Body {
		switch x := el.(type) {
		case *ast.MethodDefinition:
			if x.Computed {
				a.expr(x.Key, sc)
			}
			in := cs
			if x.Static {
				in = static
			}
			fi := a.function(x.Body, in, in.this)
			if k, ok := propKey(x.Key); ok && fi != nil {
				fi.member = k
				if k == "constructor" && !x.Static {
					ci.ctor, fi.ctor = fi, ci
				}
			}
		case *ast.FieldDefinition:
			if x.Computed {
				a.expr(x.Key, sc)
			}
			if x.Static {
				a.expr(x.Initializer, static)
			} else {
				a.expr(x.Initializer, cs)
			}
		case *ast.ClassStaticBlock:
			a.block(x.Block, static)
		}
	}
}

func (a *Model) exprs(list []ast.Expression, sc *Scope) {
	for _, e := range list {
		a.expr(e, sc)
	}
}

func (a *Model) expr(e ast.Expression, sc *Scope) {
	if a.visit != nil && e != nil {
		a.visit.Expr(e, sc)
	}
	switch x := e.(type) {
	case nil:
	case *ast.CallExpression:
		a.hooks.Call(x, sc)
		st := &site{call: x, sc: sc}
		a.sites = append(a.sites, st)
		switch c := unwrap(x.Callee).(type) {
		case *ast.Identifier:
		case *ast.DotExpression: // obj.method(…): the method is called, not used as a value
			a.expr(c.Left, sc)
		default:
			a.expr(x.Callee, sc)
		}
		a.args(st, sc)
		a.mutation(x, sc)
	case *ast.NewExpression:
		a.hooks.New(x, sc)
		st := &site{call: x, sc: sc}
		a.sites = append(a.sites, st)
		if _, isID := x.Callee.(*ast.Identifier); !isID {
			a.expr(x.Callee, sc)
		}
		a.args(st, sc)
	case *ast.Identifier:
		a.hooks.Ident(x, sc)
		if b := sc.lookup(x.Name.String()); b != nil {
			b.escaped = true
		}
	case *ast.OptionalChain:
		a.expr(x.Expression, sc)
	case *ast.Optional:
		a.expr(x.Expression, sc)
	case *ast.DotExpression:
		a.valueMembers[x.Identifier.Name.String()] = true
		a.expr(x.Left, sc)
	case *ast.PrivateDotExpression:
		a.expr(x.Left, sc)
	case *ast.BracketExpression:
		a.expr(x.Left, sc)
		a.expr(x.Member, sc)
	case *ast.AssignExpression:
		a.record(x, sc)
		a.hooks.Assign(x, sc)
		a.expr(x.Left, sc)
		a.expr(x.Right, sc)
	case *ast.BinaryExpression:
		a.expr(x.Left, sc)
		a.cond++
		a.expr(x.Right, sc)
		a.cond--
	case *ast.UnaryExpression:
		if x.Operator == gtoken.INCREMENT || x.Operator == gtoken.DECREMENT {
			a.opaque(x.Operand, sc)
		}
		if _, isID := x.Operand.(*ast.Identifier); isID && x.Operator == gtoken.TYPEOF {
			break // typeof x is a feature test, not a use of x's value
		}
		a.expr(x.Operand, sc)
	case *ast.ConditionalExpression:
		a.expr(x.Test, sc)
		a.cond++
		a.expr(x.Consequent, sc)
		a.expr(x.Alternate, sc)
		a.cond--
	case *ast.SequenceExpression:
		a.exprs(x.Sequence, sc)
	case *ast.AwaitExpression:
		a.expr(x.Argument, sc)
	case *ast.YieldExpression:
		a.expr(x.Argument, sc)
	case *ast.SpreadElement:
		a.expr(x.Expression, sc)
	case *ast.ArrayLiteral:
		a.exprs(x.Value, sc)
	case *ast.ObjectLiteral:
		a.object(x, sc)
	case *ast.FunctionLiteral:
		a.function(x, sc, nil)
	case *ast.ArrowFunctionLiteral:
		inner := newScope(sc)
		inner.unit = x
		loops, cond := a.loops, a.cond
		a.loops, a.cond = 0, 0
		defer func() { a.loops, a.cond = loops, cond }()
		fi := &fnInfo{node: x, params: x.ParameterList, inner: inner}
		a.fns[x] = fi
		a.declareParams(x.ParameterList, inner, fi)
		a.params(x.ParameterList, inner)
		switch body := x.Body.(type) {
		case *ast.BlockStatement:
			a.fnStack = append(a.fnStack, fi)
			a.declareList(body.List, inner)
			a.hooks.Func(x, inner)
			a.stmts(body.List, inner)
			a.fnStack = a.fnStack[:len(a.fnStack)-1]
		case *ast.ExpressionBody:
			fi.rets = append(fi.rets, scopedExpr{e: body.Expression, sc: inner})
			a.expr(body.Expression, inner)
		}
	case *ast.ClassLiteral:
		a.class(x, sc)
	case *ast.TemplateLiteral:
		if x.Tag != nil {
			// tag`a${b}c` calls tag(["a", "c"], b): a call site of the tag.
			st := &site{call: &ast.CallExpression{Callee: x.Tag, ArgumentList: tagArgs(x), LeftParenthesis: x.OpenQuote, RightParenthesis: x.CloseQuote}, sc: sc}
			a.sites = append(a.sites, st)
			switch c := unwrap(x.Tag).(type) {
			case *ast.Identifier:
			case *ast.DotExpression:
				a.expr(c.Left, sc)
			default:
				a.expr(x.Tag, sc)
			}
		}
		a.exprs(x.Expressions, sc)
		a.hooks.Template(x)
	case *ast.StringLiteral:
		a.hooks.String(x)
	case *ast.Binding:
		a.expr(x.Initializer, sc)
	case *ast.ObjectPattern, *ast.ArrayPattern:
		a.pattern(x, sc)
	}
}

func (a *Model) object(o *ast.ObjectLiteral, sc *Scope) {
	for _, p := range o.Value {
		switch q := p.(type) {
		case *ast.PropertyKeyed:
			if q.Computed {
				a.expr(q.Key, sc)
			} else {
				a.hooks.Property(q, sc)
			}
			k, _ := propKey(q.Key)
			if f, isFn := q.Value.(*ast.FunctionLiteral); isFn {
				if fi := a.function(f, sc, &thisCtx{obj: o, sc: sc}); fi != nil { // a method: this is the object
					fi.member = k
				}
				continue
			}
			a.expr(q.Value, sc)
			if fi := a.fns[q.Value]; fi != nil {
				fi.member = k
			}
		case *ast.PropertyShort:
			a.expr(&q.Name, sc)
			a.expr(q.Initializer, sc)
		case *ast.SpreadElement:
			a.expr(q.Expression, sc)
		}
	}
}

// args walks the arguments of a call, noting the function literals
// written there (callbacks: their parameters come from the callee).
func (a *Model) args(st *site, sc *Scope) {
	for i, e := range st.args() {
		a.expr(e, sc)
		switch f := e.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			if fi := a.fns[f]; fi != nil {
				fi.argOf, fi.argIndex = st, int32(i)
			}
		}
	}
}

// record notes an assignment for the value-set evaluator.
func (a *Model) record(x *ast.AssignExpression, sc *Scope) {
	plain := x.Operator == gtoken.ASSIGN || x.Operator == gtoken.COALESCE || x.Operator == gtoken.LOGICAL_OR
	switch l := x.Left.(type) {
	case *ast.Identifier:
		if b := sc.lookup(l.Name.String()); b != nil {
			if plain {
				r := b.setExtra()
				r.assigns = append(r.assigns, scopedExpr{e: x.Right, sc: sc, pos: int(x.Idx0()), inLoop: a.loops > 0, cond: a.cond > 0 || a.loops > 0})
			} else {
				b.opaque = true
			}
		}
	case *ast.DotExpression:
		name := l.Identifier.Name.String()
		switch o := l.Left.(type) {
		case *ast.ThisExpression:
			for s := sc; s != nil; s = s.parent {
				if s.this != nil {
					if c := s.this.cls; c != nil {
						if plain {
							c.assigns[name] = append(c.assigns[name], scopedExpr{e: x.Right, sc: sc})
						} else {
							c.assigns[name] = append(c.assigns[name], scopedExpr{e: nil, sc: nil})
						}
					}
					break
				}
			}
		case *ast.Identifier:
			if b := sc.lookup(o.Name.String()); b != nil {
				if plain {
					r := b.setExtra()
					if r.propAssigns == nil {
						r.propAssigns = map[string][]scopedExpr{}
					}
					r.propAssigns[name] = append(r.propAssigns[name], scopedExpr{e: x.Right, sc: sc})
				} else {
					b.opaque = true
				}
			}
		}
	case *ast.BracketExpression:
		if id, ok := l.Left.(*ast.Identifier); ok {
			if b := sc.lookup(id.Name.String()); b != nil {
				b.opaque = true
			}
		}
	default: // ({ a } = obj), [a, b] = list: not followed
		a.opaque(x.Left, sc)
	}
}

// opaque marks every name a target assigns as changed in a way the
// evaluator does not follow.
func (a *Model) opaque(t ast.Expression, sc *Scope) {
	switch x := t.(type) {
	case *ast.Identifier:
		if b := sc.lookup(x.Name.String()); b != nil {
			b.opaque = true
		}
	case *ast.ObjectPattern:
		for _, p := range x.Properties {
			switch q := p.(type) {
			case *ast.PropertyShort:
				a.opaque(&q.Name, sc)
			case *ast.PropertyKeyed:
				a.opaque(q.Value, sc)
			}
		}
		a.opaque(x.Rest, sc)
	case *ast.ArrayPattern:
		for _, e := range x.Elements {
			a.opaque(e, sc)
		}
		a.opaque(x.Rest, sc)
	case *ast.AssignExpression:
		a.opaque(x.Left, sc)
	case *ast.Binding:
		a.opaque(x.Target, sc)
	}
}

// mutation notes list.push(…) and the like on a name: its elements are
// then not followed.
func (a *Model) mutation(c *ast.CallExpression, sc *Scope) {
	d, ok := unwrap(c.Callee).(*ast.DotExpression)
	if !ok {
		return
	}
	switch d.Identifier.Name.String() {
	case "push", "unshift", "splice", "fill", "copyWithin", "assign", "defineProperty":
	default:
		return
	}
	target := d.Left
	if id, isID := target.(*ast.Identifier); isID && id.Name.String() == "Object" && len(c.ArgumentList) > 0 {
		target = c.ArgumentList[0]
	}
	if id, isID := unwrap(target).(*ast.Identifier); isID {
		if b := sc.lookup(id.Name.String()); b != nil {
			b.opaque = true
		}
	}
}

// tagArgs are the arguments a tag function receives: the array of the
// template's strings (as cooked), then the substitutions.
func tagArgs(t *ast.TemplateLiteral) []ast.Expression {
	strs := &ast.ArrayLiteral{LeftBracket: t.OpenQuote, RightBracket: t.CloseQuote}
	for _, el := range t.Elements {
		// Each string is placed at the template (its literal, for messages).
		strs.Value = append(strs.Value, &ast.StringLiteral{Idx: t.OpenQuote, Literal: el.Literal, Value: el.Parsed})
	}
	return append([]ast.Expression{strs}, t.Expressions...)
}
