package js

import (
	"strings"

	"github.com/dop251/goja/ast"
	gtoken "github.com/dop251/goja/token"
	"github.com/plugin-lsp/plugin-lsp/analysis/jslex"
)

// Host objects and the global object as the scope model names them.
const (
	objHTTP        = "http"
	objCollections = "collections"
	objGlobal      = "globalThis"
)

type declKind int

const (
	declConst declKind = iota
	declLet
	declVar
	declParam
	declFunc
	declClass
)

// binding is one declared name. What it holds (a host object, a host
// method, a constant) is worked out lazily, on first use, in the scope it
// was declared in.
type binding struct {
	decl         declKind
	init         ast.Expression // the initializer, nil when none
	destructured bool           // const { key: name } = init
	key          string
	scope        *scope
	node         ast.Node // the declaration (function, class) or nil
	fn           *ast.FunctionLiteral

	state      int // 0 new, 1 classifying, 2 done
	hostObj    string
	hostObject string // with hostMethod: the object of a method alias
	hostMethod string
	evaluating bool
}

type scope struct {
	parent *scope
	names  map[string]*binding
}

func newScope(parent *scope) *scope { return &scope{parent: parent, names: map[string]*binding{}} }

func (s *scope) lookup(name string) *binding {
	for ; s != nil; s = s.parent {
		if b, ok := s.names[name]; ok {
			return b
		}
	}
	return nil
}

func (s *scope) declare(name string, b *binding) {
	b.scope = s
	s.names[name] = b
}

// run walks the program: the body of the async arrow that wraps the page.
func (a *analyzer) run(prog *ast.Program) {
	top := a.topLevel(prog)
	sc := newScope(nil)
	a.declareList(top, sc)
	a.findDefaultExport(top, sc)
	for _, s := range top {
		a.stmt(s, sc)
	}
}

func (a *analyzer) topLevel(prog *ast.Program) []ast.Statement {
	if len(prog.Body) == 0 {
		return nil
	}
	es, ok := prog.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return prog.Body
	}
	call, ok := es.Expression.(*ast.CallExpression)
	if !ok {
		return prog.Body
	}
	arrow, ok := call.Callee.(*ast.ArrowFunctionLiteral)
	if !ok {
		return prog.Body
	}
	if body, ok := arrow.Body.(*ast.BlockStatement); ok {
		return body.List
	}
	return prog.Body
}

// findDefaultExport fills page.DefaultExport from "var __def__ = X" or
// the "export { x as default }" alias.
func (a *analyzer) findDefaultExport(top []ast.Statement, sc *scope) {
	de := &a.page.DefaultExport
	if a.prep.defaultDecl >= 0 {
		for _, s := range top {
			vs, ok := s.(*ast.VariableStatement)
			if !ok || len(vs.List) != 1 {
				continue
			}
			id, ok := vs.List[0].Target.(*ast.Identifier)
			if !ok || id.Name.String() != defaultVar {
				continue
			}
			de.Present = true
			de.Kind = a.valueKind(vs.List[0].Initializer, sc, 0)
			if st := a.toTS(a.prep.defaultDecl); st >= 0 {
				de.Span = Span{st, st + len("export default")}
				if a.ts[st:min(len(a.ts), st+6)] != "export" {
					de.Span = a.tokSpan(vs.List[0].Initializer)
				}
			}
			return
		}
	}
	if a.prep.defaultAlias != "" {
		de.Present = true
		de.Kind = "unknown"
		if b := sc.names[a.prep.defaultAlias]; b != nil {
			de.Kind = a.bindingKind(b, 0)
			if b.node != nil {
				de.Span = a.tokSpan(b.node)
			} else if b.init != nil {
				de.Span = a.tokSpan(b.init)
			}
		}
		if de.Span.End == 0 {
			if st := a.toTS(a.prep.aliasAt); st >= 0 {
				de.Span = Span{st, tokenEnd(a.ts, st)}
			}
		}
	}
}

func (a *analyzer) bindingKind(b *binding, depth int) string {
	switch b.decl {
	case declFunc:
		return "function"
	case declClass:
		return "class"
	case declParam:
		return "unknown"
	}
	if b.init == nil || b.destructured {
		return "unknown"
	}
	return a.valueKind(b.init, b.scope, depth+1)
}

func (a *analyzer) valueKind(e ast.Expression, sc *scope, depth int) string {
	if depth > 16 {
		return "unknown"
	}
	switch x := e.(type) {
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
		return "function"
	case *ast.ClassLiteral:
		return "class"
	case *ast.ObjectLiteral:
		return "object"
	case *ast.StringLiteral, *ast.NumberLiteral, *ast.BooleanLiteral, *ast.NullLiteral,
		*ast.TemplateLiteral, *ast.ArrayLiteral, *ast.RegExpLiteral:
		return "value"
	case *ast.Identifier:
		if b := sc.lookup(x.Name.String()); b != nil {
			return a.bindingKind(b, depth)
		}
	}
	return "unknown"
}

// ---- declarations ----

// declareList hoists the declarations of a statement list into sc.
func (a *analyzer) declareList(list []ast.Statement, sc *scope) {
	for _, s := range list {
		switch x := s.(type) {
		case *ast.VariableStatement:
			for _, b := range x.List {
				a.declareTarget(b.Target, b.Initializer, declVar, sc)
			}
		case *ast.LexicalDeclaration:
			kind := declLet
			if x.Token == gtoken.CONST {
				kind = declConst
			}
			for _, b := range x.List {
				a.declareTarget(b.Target, b.Initializer, kind, sc)
			}
		case *ast.FunctionDeclaration:
			if x.Function.Name != nil {
				sc.declare(x.Function.Name.Name.String(), &binding{decl: declFunc, node: x.Function.Name, fn: x.Function})
			}
		case *ast.ClassDeclaration:
			if x.Class.Name != nil {
				sc.declare(x.Class.Name.Name.String(), &binding{decl: declClass, node: x.Class.Name})
			}
		}
	}
}

// declareTarget declares the names bound by a binding target.
func (a *analyzer) declareTarget(t ast.Expression, init ast.Expression, kind declKind, sc *scope) {
	switch x := t.(type) {
	case *ast.Identifier:
		sc.declare(x.Name.String(), &binding{decl: kind, init: init})
	case *ast.ObjectPattern:
		for _, p := range x.Properties {
			switch q := p.(type) {
			case *ast.PropertyShort:
				sc.declare(q.Name.Name.String(), &binding{decl: kind, init: init, destructured: init != nil, key: q.Name.Name.String()})
			case *ast.PropertyKeyed:
				key, ok := propKey(q.Key)
				target := q.Value
				if as, isAssign := target.(*ast.AssignExpression); isAssign {
					target = as.Left
				}
				if id, isID := target.(*ast.Identifier); isID && ok && !q.Computed {
					sc.declare(id.Name.String(), &binding{decl: kind, init: init, destructured: init != nil, key: key})
				} else {
					a.declareTarget(target, nil, kind, sc)
				}
			}
		}
		if x.Rest != nil {
			a.declareTarget(x.Rest, nil, kind, sc)
		}
	case *ast.ArrayPattern:
		for _, e := range x.Elements {
			if e != nil {
				a.declareTarget(e, nil, kind, sc)
			}
		}
		if x.Rest != nil {
			a.declareTarget(x.Rest, nil, kind, sc)
		}
	case *ast.AssignExpression: // a default value in a pattern
		a.declareTarget(x.Left, nil, kind, sc)
	case *ast.Binding:
		a.declareTarget(x.Target, nil, kind, sc)
	}
}

func propKey(k ast.Expression) (string, bool) {
	switch x := k.(type) {
	case *ast.StringLiteral:
		return x.Value.String(), true
	case *ast.Identifier:
		return x.Name.String(), true
	case *ast.NumberLiteral:
		return x.Literal, true
	}
	return "", false
}

func (a *analyzer) declareParams(pl *ast.ParameterList, sc *scope) {
	if pl == nil {
		return
	}
	for _, b := range pl.List {
		a.declareTarget(b.Target, nil, declParam, sc)
	}
	if pl.Rest != nil {
		a.declareTarget(pl.Rest, nil, declParam, sc)
	}
}

// classify works out what a binding holds, once.
func (a *analyzer) classify(b *binding) {
	if b.state != 0 {
		return
	}
	b.state = 1
	defer func() { b.state = 2 }()
	if b.init == nil {
		return
	}
	if b.destructured {
		obj := a.resolveObj(b.init, b.scope)
		switch obj {
		case objHTTP, objCollections:
			b.hostObject, b.hostMethod = obj, b.key
		case objGlobal:
			if b.key == objHTTP || b.key == objCollections || b.key == objGlobal {
				b.hostObj = b.key
			}
		}
		return
	}
	if obj := a.resolveObj(b.init, b.scope); obj != "" {
		b.hostObj = obj
		return
	}
	if obj, m, ok := a.resolveMethodRef(b.init, b.scope); ok && m != "" {
		b.hostObject, b.hostMethod = obj, m
	}
}

// ---- host object and method resolution ----

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

// resolveObj returns "http", "collections" or "globalThis" when e
// denotes that object, "" otherwise.
func (a *analyzer) resolveObj(e ast.Expression, sc *scope) string {
	switch x := unwrap(e).(type) {
	case *ast.Identifier:
		name := x.Name.String()
		if b := sc.lookup(name); b != nil {
			a.classify(b)
			return b.hostObj
		}
		switch name {
		case objHTTP, objCollections, objGlobal:
			return name
		}
	case *ast.DotExpression:
		if a.resolveObj(x.Left, sc) == objGlobal {
			switch n := x.Identifier.Name.String(); n {
			case objHTTP, objCollections, objGlobal:
				return n
			}
		}
	case *ast.BracketExpression:
		if a.resolveObj(x.Left, sc) == objGlobal {
			if v := a.eval(x.Member, sc, 0); v.kind == Exact {
				switch v.s {
				case objHTTP, objCollections, objGlobal:
					return v.s
				}
			}
		}
	}
	return ""
}

// resolveMethodRef reports whether e denotes a host method (http.fetch,
// h["fetch"], an alias, http.fetch.bind(http)). method is "" for a
// computed member.
func (a *analyzer) resolveMethodRef(e ast.Expression, sc *scope) (obj, method string, ok bool) {
	switch x := unwrap(e).(type) {
	case *ast.DotExpression:
		if o := a.resolveObj(x.Left, sc); o == objHTTP || o == objCollections {
			return o, x.Identifier.Name.String(), true
		}
	case *ast.BracketExpression:
		if o := a.resolveObj(x.Left, sc); o == objHTTP || o == objCollections {
			if v := a.eval(x.Member, sc, 0); v.kind == Exact {
				return o, v.s, true
			}
			return o, "", true
		}
	case *ast.Identifier:
		if b := sc.lookup(x.Name.String()); b != nil {
			a.classify(b)
			if b.hostMethod != "" {
				return b.hostObject, b.hostMethod, true
			}
		}
	case *ast.CallExpression: // http.fetch.bind(http)
		if d, isDot := unwrap(x.Callee).(*ast.DotExpression); isDot && d.Identifier.Name.String() == "bind" {
			return a.resolveMethodRef(d.Left, sc)
		}
	}
	return "", "", false
}

// ---- the walk ----

func (a *analyzer) stmts(list []ast.Statement, sc *scope) {
	for _, s := range list {
		a.stmt(s, sc)
	}
}

func (a *analyzer) block(b *ast.BlockStatement, sc *scope) {
	if b == nil {
		return
	}
	inner := newScope(sc)
	a.declareList(b.List, inner)
	a.stmts(b.List, inner)
}

func (a *analyzer) stmt(s ast.Statement, sc *scope) {
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
		a.function(x.Function, sc)
	case *ast.ClassDeclaration:
		a.class(x.Class, sc)
	case *ast.IfStatement:
		a.expr(x.Test, sc)
		a.stmt(x.Consequent, sc)
		a.stmt(x.Alternate, sc)
	case *ast.ReturnStatement:
		a.expr(x.Argument, sc)
	case *ast.ThrowStatement:
		a.expr(x.Argument, sc)
	case *ast.TryStatement:
		a.block(x.Body, sc)
		if x.Catch != nil {
			inner := newScope(sc)
			if x.Catch.Parameter != nil {
				a.declareTarget(x.Catch.Parameter, nil, declParam, inner)
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
				a.declareTarget(b.Target, nil, declVar, inner)
			}
			a.bindings(init.List, inner)
		case *ast.ForLoopInitializerLexicalDecl:
			for _, b := range init.LexicalDeclaration.List {
				a.declareTarget(b.Target, nil, declLet, inner)
			}
			a.bindings(init.LexicalDeclaration.List, inner)
		}
		a.expr(x.Test, inner)
		a.expr(x.Update, inner)
		a.stmt(x.Body, inner)
	case *ast.ForInStatement:
		inner := a.forInto(x.Into, sc)
		a.expr(x.Source, sc)
		a.stmt(x.Body, inner)
	case *ast.ForOfStatement:
		inner := a.forInto(x.Into, sc)
		a.expr(x.Source, sc)
		a.stmt(x.Body, inner)
	case *ast.WhileStatement:
		a.expr(x.Test, sc)
		a.stmt(x.Body, sc)
	case *ast.DoWhileStatement:
		a.stmt(x.Body, sc)
		a.expr(x.Test, sc)
	case *ast.LabelledStatement:
		a.stmt(x.Statement, sc)
	case *ast.SwitchStatement:
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

func (a *analyzer) forInto(into ast.ForInto, sc *scope) *scope {
	inner := newScope(sc)
	switch x := into.(type) {
	case *ast.ForIntoVar:
		a.declareTarget(x.Binding.Target, nil, declVar, inner)
	case *ast.ForDeclaration:
		a.declareTarget(x.Target, nil, declLet, inner)
	case *ast.ForIntoExpression:
		a.expr(x.Expression, sc)
	}
	return inner
}

func (a *analyzer) bindings(list []*ast.Binding, sc *scope) {
	for _, b := range list {
		if id, ok := b.Target.(*ast.Identifier); ok && strings.Contains(strings.ToLower(id.Name.String()), "header") {
			if _, isObj := unwrap(b.Initializer).(*ast.ObjectLiteral); isObj {
				a.headerObject(b.Initializer, sc) // const headers = { Authorization: … }
			}
		}
		a.pattern(b.Target, sc)
		a.expr(b.Initializer, sc)
	}
}

// pattern walks default values inside a binding pattern.
func (a *analyzer) pattern(t ast.Expression, sc *scope) {
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

func (a *analyzer) function(f *ast.FunctionLiteral, sc *scope) {
	if f == nil {
		return
	}
	inner := newScope(sc)
	if f.Name != nil {
		inner.declare(f.Name.Name.String(), &binding{decl: declFunc, node: f.Name})
	}
	inner.declare("arguments", &binding{decl: declParam})
	a.declareParams(f.ParameterList, inner)
	a.params(f.ParameterList, inner)
	if f.Body != nil {
		a.declareList(f.Body.List, inner)
		a.stmts(f.Body.List, inner)
	}
}

func (a *analyzer) params(pl *ast.ParameterList, sc *scope) {
	if pl == nil {
		return
	}
	for _, b := range pl.List {
		a.pattern(b.Target, sc)
		a.expr(b.Initializer, sc)
	}
}

func (a *analyzer) class(c *ast.ClassLiteral, sc *scope) {
	if c == nil {
		return
	}
	a.expr(c.SuperClass, sc)
	for _, el := range c.Body {
		switch x := el.(type) {
		case *ast.MethodDefinition:
			if x.Computed {
				a.expr(x.Key, sc)
			}
			a.function(x.Body, sc)
		case *ast.FieldDefinition:
			if x.Computed {
				a.expr(x.Key, sc)
			}
			a.expr(x.Initializer, sc)
		case *ast.ClassStaticBlock:
			a.block(x.Block, sc)
		}
	}
}

func (a *analyzer) exprs(list []ast.Expression, sc *scope) {
	for _, e := range list {
		a.expr(e, sc)
	}
}

func (a *analyzer) expr(e ast.Expression, sc *scope) {
	switch x := e.(type) {
	case nil:
	case *ast.CallExpression:
		a.call(x, sc)
		a.expr(x.Callee, sc)
		a.exprs(x.ArgumentList, sc)
	case *ast.NewExpression:
		a.newExpr(x, sc)
		a.expr(x.Callee, sc)
		a.exprs(x.ArgumentList, sc)
	case *ast.OptionalChain:
		a.expr(x.Expression, sc)
	case *ast.Optional:
		a.expr(x.Expression, sc)
	case *ast.DotExpression:
		a.expr(x.Left, sc)
		if g, ok := x.Left.(*ast.Identifier); ok && g.Name.String() == objGlobal && sc.lookup(objGlobal) == nil {
			a.globalRef(&x.Identifier, sc) // globalThis.fetch
		}
	case *ast.PrivateDotExpression:
		a.expr(x.Left, sc)
	case *ast.BracketExpression:
		a.expr(x.Left, sc)
		a.expr(x.Member, sc)
	case *ast.AssignExpression:
		a.assign(x, sc)
		a.expr(x.Left, sc)
		a.expr(x.Right, sc)
	case *ast.BinaryExpression:
		a.expr(x.Left, sc)
		a.expr(x.Right, sc)
	case *ast.UnaryExpression:
		if !isTypeofGuard(x) {
			a.expr(x.Operand, sc)
		}
	case *ast.Identifier:
		a.globalRef(x, sc)
	case *ast.ConditionalExpression:
		a.expr(x.Test, sc)
		a.expr(x.Consequent, sc)
		a.expr(x.Alternate, sc)
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
		a.function(x, sc)
	case *ast.ArrowFunctionLiteral:
		inner := newScope(sc)
		a.declareParams(x.ParameterList, inner)
		a.params(x.ParameterList, inner)
		switch body := x.Body.(type) {
		case *ast.BlockStatement:
			a.declareList(body.List, inner)
			a.stmts(body.List, inner)
		case *ast.ExpressionBody:
			a.expr(body.Expression, inner)
		}
	case *ast.ClassLiteral:
		a.class(x, sc)
	case *ast.TemplateLiteral:
		a.expr(x.Tag, sc)
		a.exprs(x.Expressions, sc)
		a.templateTokens(x)
	case *ast.StringLiteral:
		a.stringToken(x)
	case *ast.Binding:
		a.expr(x.Initializer, sc)
	case *ast.ObjectPattern, *ast.ArrayPattern:
		a.pattern(x, sc)
	}
}

func (a *analyzer) object(o *ast.ObjectLiteral, sc *scope) {
	for _, p := range o.Value {
		switch q := p.(type) {
		case *ast.PropertyKeyed:
			if q.Computed {
				a.expr(q.Key, sc)
			} else if k, ok := propKey(q.Key); ok && strings.EqualFold(k, "headers") {
				a.headerObject(q.Value, sc)
			}
			a.expr(q.Value, sc)
		case *ast.PropertyShort:
			a.globalRef(&q.Name, sc) // { fetch }
			a.expr(q.Initializer, sc)
		case *ast.SpreadElement:
			a.expr(q.Expression, sc)
		}
	}
}

// ---- host calls ----

func (a *analyzer) call(c *ast.CallExpression, sc *scope) {
	callee := c.Callee
	args := c.ArgumentList
	obj, method, ok := a.resolveMethodRef(callee, sc)
	if !ok {
		// http.fetch.call(thisArg, url, init)
		d, isDot := unwrap(callee).(*ast.DotExpression)
		if !isDot || d.Identifier.Name.String() != "call" {
			a.headerCall(c, sc)
			return
		}
		if obj, method, ok = a.resolveMethodRef(d.Left, sc); !ok {
			return
		}
		if len(args) > 0 {
			args = args[1:]
		}
	}
	hc := HostCall{Object: obj, Method: method}
	start := a.start(callee)
	if start < 0 {
		start = 0
	}
	if end, found := callEnd(a.ts, start); !found {
		// (http as any).fetch(…): the mapped start is inside the group.
		if j := backSpace(a.ts, start); j > 0 && a.ts[j-1] == '(' {
			if _, ok := callEnd(a.ts, j-1); ok {
				start = j - 1
			}
		}
	} else if end <= start {
		start = 0
	}
	hc.Callee = Span{start, trimOptional(a.ts, start, calleeEnd(a.ts, start))}
	if end, found := callEnd(a.ts, start); found {
		hc.Span = Span{start, end}
	} else {
		hc.Span = hc.Callee
		if len(args) > 0 {
			last := a.exprSpan(args[len(args)-1])
			end := jslex.SkipSpace(a.ts, last.End)
			if end < len(a.ts) && a.ts[end] == ')' {
				end++
			} else {
				end = last.End
			}
			if end > start {
				hc.Span.End = end
			}
		}
	}
	if obj == objHTTP && method == "fetch" {
		hc.FetchMethod = "GET"
		if len(args) > 0 {
			hc.URL = a.urlArg(args[0], sc)
		}
		if len(args) > 1 {
			hc.FetchMethod = a.fetchMethod(args[1], sc)
		}
	}
	a.page.Calls = append(a.page.Calls, hc)
}

// backSpace returns the offset after the last non-space byte before i.
func backSpace(src string, i int) int {
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	return i
}

func (a *analyzer) urlArg(e ast.Expression, sc *scope) *URLArg {
	v := a.eval(e, sc, 0)
	u := &URLArg{Span: a.exprSpan(e), Kind: v.kind, Value: v.s, Reason: v.reason}
	if v.lit >= 0 {
		u.Lit = Span{v.lit, tokenEnd(a.ts, v.lit)}
	}
	if u.Kind != Exact && u.Reason == "" {
		u.Reason = "`" + a.text(u.Span) + "` is only known at run time"
	}
	return u
}

// fetchMethod reads init.method: "GET" when absent, "" when not static.
func (a *analyzer) fetchMethod(init ast.Expression, sc *scope) string {
	o, ok := unwrap(init).(*ast.ObjectLiteral)
	if !ok {
		if id, isID := init.(*ast.Identifier); isID {
			if b := sc.lookup(id.Name.String()); b != nil && b.decl == declConst && !b.destructured && b.init != nil {
				return a.fetchMethod(b.init, b.scope)
			}
		}
		return ""
	}
	method := "GET"
	for _, p := range o.Value {
		switch q := p.(type) {
		case *ast.PropertyKeyed:
			if q.Computed {
				return ""
			}
			if k, _ := propKey(q.Key); k == "method" {
				v := a.eval(q.Value, sc, 0)
				if v.kind != Exact {
					return ""
				}
				method = strings.ToUpper(v.s)
			}
		case *ast.PropertyShort:
			if q.Name.Name.String() == "method" {
				v := a.eval(&q.Name, sc, 0)
				if v.kind != Exact {
					return ""
				}
				method = strings.ToUpper(v.s)
			}
		case *ast.SpreadElement:
			return ""
		}
	}
	return method
}

// ---- headers set in code ----

// headerObject records the keys of { headers: { K: v } } and
// { headers: new Headers({ K: v }) }.
func (a *analyzer) headerObject(v ast.Expression, sc *scope) {
	switch x := unwrap(v).(type) {
	case *ast.ObjectLiteral:
		for _, p := range x.Value {
			switch q := p.(type) {
			case *ast.PropertyKeyed:
				if q.Computed {
					if s := a.eval(q.Key, sc, 0); s.kind == Exact {
						a.addHeader(s.s, q.Key)
					}
					continue
				}
				if k, ok := propKey(q.Key); ok {
					a.addHeader(k, q.Key)
					a.removable()
				}
			case *ast.PropertyShort:
				a.addHeader(q.Name.Name.String(), &q.Name)
				a.removable()
			}
		}
	case *ast.ArrayLiteral: // [["Authorization", v]]
		for _, el := range x.Value {
			if pair, ok := el.(*ast.ArrayLiteral); ok && len(pair.Value) > 0 {
				if s := a.eval(pair.Value[0], sc, 0); s.kind == Exact {
					a.addHeader(s.s, pair.Value[0])
				}
			}
		}
	case *ast.Identifier:
		if b := sc.lookup(x.Name.String()); b != nil && b.init != nil && !b.destructured && b.decl == declConst {
			if _, isObj := unwrap(b.init).(*ast.ObjectLiteral); isObj {
				return // walked where it is declared when it is a headers object
			}
		}
	}
}

func (a *analyzer) addHeader(name string, at ast.Node) {
	a.page.Headers = append(a.page.Headers, Header{Name: name, Span: a.tokSpan(at)})
}

func (a *analyzer) newExpr(n *ast.NewExpression, sc *scope) {
	id, ok := n.Callee.(*ast.Identifier)
	if !ok || id.Name.String() != "Headers" || len(n.ArgumentList) == 0 || sc.lookup("Headers") != nil {
		return
	}
	a.headerObject(n.ArgumentList[0], sc)
}

// headerCall records h.set("K", v) / h.append("K", v) on an object whose
// name mentions headers.
func (a *analyzer) headerCall(c *ast.CallExpression, sc *scope) {
	d, ok := unwrap(c.Callee).(*ast.DotExpression)
	if !ok || len(c.ArgumentList) < 2 {
		return
	}
	if m := d.Identifier.Name.String(); m != "set" && m != "append" {
		return
	}
	if !strings.Contains(strings.ToLower(exprName(d.Left)), "header") && !a.isHeadersObject(d.Left, sc) {
		return
	}
	if s := a.eval(c.ArgumentList[0], sc, 0); s.kind == Exact {
		a.addHeader(s.s, c.ArgumentList[0])
	}
}

// assign records headers.K = v and h["K"] = v on an object whose name
// mentions headers.
func (a *analyzer) assign(x *ast.AssignExpression, sc *scope) {
	switch l := x.Left.(type) {
	case *ast.DotExpression:
		if strings.Contains(strings.ToLower(exprName(l.Left)), "header") {
			a.addHeader(l.Identifier.Name.String(), &l.Identifier)
		}
	case *ast.BracketExpression:
		if strings.Contains(strings.ToLower(exprName(l.Left)), "header") {
			if s := a.eval(l.Member, sc, 0); s.kind == Exact {
				a.addHeader(s.s, l.Member)
			}
		}
	}
}

// exprName is the last name of an identifier or member chain.
func exprName(e ast.Expression) string {
	switch x := unwrap(e).(type) {
	case *ast.Identifier:
		return x.Name.String()
	case *ast.DotExpression:
		return x.Identifier.Name.String()
	}
	return ""
}

// isHeadersObject reports whether e is a name bound to new Headers(…).
func (a *analyzer) isHeadersObject(e ast.Expression, sc *scope) bool {
	id, ok := unwrap(e).(*ast.Identifier)
	if !ok {
		return false
	}
	b := sc.lookup(id.Name.String())
	if b == nil || b.init == nil || b.destructured {
		return false
	}
	n, ok := unwrap(b.init).(*ast.NewExpression)
	if !ok {
		return false
	}
	c, ok := n.Callee.(*ast.Identifier)
	return ok && c.Name.String() == "Headers"
}

// trimOptional drops a trailing "?." (an optional call: f?.(x)) from a
// callee span.
func trimOptional(src string, start, end int) int {
	e := backSpace(src, end)
	if e-2 > start && src[e-2:e] == "?." {
		return backSpace(src, e-2)
	}
	return end
}

// removable sets Remove on the header just added, a property of an
// object literal: the property with the comma after it (or before it,
// for the last one), or its whole line when it stands alone on one.
func (a *analyzer) removable() {
	h := &a.page.Headers[len(a.page.Headers)-1]
	start := h.Span.Start
	if h.Span.End == 0 {
		return
	}
	src := a.ts
	end := exprEnd(src, start)
	if end <= start {
		return
	}
	j := end
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j < len(src) && src[j] == ',' {
		end = j + 1
		for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
			end++
		}
	} else {
		// The last property: take the comma before it.
		k := backSpace(src, start)
		if k > 0 && src[k-1] == ',' {
			start = k - 1
		}
	}
	ls := strings.LastIndexByte(src[:h.Span.Start], '\n') + 1
	if strings.TrimSpace(src[ls:h.Span.Start]) == "" && (end >= len(src) || src[end] == '\n' || src[end] == '\r') {
		// Alone on its line: drop the line.
		start = ls
		if end < len(src) && src[end] == '\r' {
			end++
		}
		if end < len(src) && src[end] == '\n' {
			end++
		}
	}
	h.Remove = Span{start, end}
}
