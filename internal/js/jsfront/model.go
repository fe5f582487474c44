package jsfront

import (
	"github.com/dop251/goja/ast"
)

// Source is how a consumer places nodes in its text: Start is where a
// node starts (a byte offset the consumer understands, -1 when unknown)
// and Text a short text of an expression for messages ("" when none).
type Source interface {
	Start(n ast.Node) int
	Text(e ast.Node) string
}

// Hooks are what a consumer looks for during the walk, each called with
// the scope the node is in. Names of enclosing scopes are all declared
// (hoisted), but what the walk records (call sites, assignments) is only
// complete after Resolve: a value asked for during the walk takes
// parameters as unknown and is not memoized.
type Hooks interface {
	Call(c *ast.CallExpression, sc *Scope)
	New(n *ast.NewExpression, sc *Scope)
	Assign(x *ast.AssignExpression, sc *Scope)
	Binding(b *ast.Binding, sc *Scope)
	Property(p *ast.PropertyKeyed, sc *Scope) // a non-computed key of an object literal
	Ident(id *ast.Identifier, sc *Scope)      // an identifier read as a value
	String(s *ast.StringLiteral)
	Template(t *ast.TemplateLiteral)
	// Func is called with a function (literal or arrow) with a block body
	// and the scope of its body, its parameters and hoisted names declared.
	Func(f ast.Expression, body *Scope)
}

// NoHooks does nothing; embed it to implement only some hooks.
type NoHooks struct{}

func (NoHooks) Call(*ast.CallExpression, *Scope)     {}
func (NoHooks) New(*ast.NewExpression, *Scope)       {}
func (NoHooks) Assign(*ast.AssignExpression, *Scope) {}
func (NoHooks) Binding(*ast.Binding, *Scope)         {}
func (NoHooks) Property(*ast.PropertyKeyed, *Scope)  {}
func (NoHooks) Ident(*ast.Identifier, *Scope)        {}
func (NoHooks) String(*ast.StringLiteral)            {}
func (NoHooks) Template(*ast.TemplateLiteral)        {}
func (NoHooks) Func(ast.Expression, *Scope)          {}

// Model is the scope model of one program and the value-set evaluator
// over it. Build it with NewModel, declare and walk the top level
// (Declare, Walk), call Resolve, then ask for values.
type Model struct {
	src   Source
	hooks Hooks
	visit Visitor // hooks, when they implement it; nil otherwise

	fns     map[ast.Node]*fnInfo
	classes map[*ast.ClassLiteral]*classInfo
	sites   []*site
	// valueMembers are the property names read other than to call them
	// (x.m passed as a value): a method of that name may be called from
	// anywhere.
	valueMembers map[string]bool
	fnStack      []*fnInfo
	loops        int // loops around the statement being walked, in its function
	cond         int // branches (if, switch, try, ?:, &&) around it, in its function
	entryFn      ast.Node
	walking      bool
	es           evalState
	pageSteps    int // evaluation steps of the whole program (maxPageSteps)
}

// NewModel returns an empty model; hooks may be nil.
func NewModel(src Source, hooks Hooks) *Model {
	if hooks == nil {
		hooks = NoHooks{}
	}
	visit, _ := hooks.(Visitor)
	return &Model{src: src, hooks: hooks, visit: visit, fns: map[ast.Node]*fnInfo{}, classes: map[*ast.ClassLiteral]*classInfo{},
		valueMembers: map[string]bool{}, walking: true}
}

// Declare hoists the declarations of a top-level statement list into a
// new scope and returns it.
func (a *Model) Declare(body []ast.Statement) *Scope {
	sc := newScope(nil)
	a.declareList(body, sc)
	return sc
}

// Walk walks the statements in sc, recording functions, classes, call
// sites and assignments, and calling the hooks.
func (a *Model) Walk(body []ast.Statement, sc *Scope) { a.stmts(body, sc) }

// Resolve ends the walk: from now on parameters take the arguments of
// every call site seen. entry, when not nil, is the binding of the
// program's entry point (a tool's default export): its function is called
// from outside with the tool's input.
func (a *Model) Resolve(entry *Binding) {
	a.walking = false
	if b := entry; b != nil {
		if fn := b.Func(); fn != nil {
			a.entryFn = fn
		} else if f := a.fns[unwrap(b.Init())]; f != nil {
			a.entryFn = f.node
		}
	}
}

// Lookup returns the binding of name visible in s, nil when none.
func (s *Scope) Lookup(name string) *Binding { return s.lookup(name) }

// Own returns the binding of name declared in s itself, nil when none.
func (s *Scope) Own(name string) *Binding { return s.own(name) }

// Kind is how a binding is declared.
func (b *Binding) Kind() DeclKind { return b.decl }

// Init is the initializer, nil when none (a parameter, a function or
// class declaration, a destructured name: see Destructured).
func (b *Binding) Init() ast.Expression {
	if b.decl == DeclFunc {
		return nil
	}
	return b.init
}

// Destructured reports a name read from its initializer by a pattern
// (const { key: name } = init); Key is the last key read.
func (b *Binding) Destructured() bool { return b.destructured }

// Key is the key a destructured name is read from.
func (b *Binding) Key() string { return b.extra().key }

// Scope is the scope the name is declared in.
func (b *Binding) Scope() *Scope { return b.scope }

// Node is the declaring node of a function or class declaration (its
// name), nil otherwise.
func (b *Binding) Node() ast.Node {
	if b.id == nil || (b.decl != DeclFunc && b.decl != DeclClass) {
		return nil
	}
	return b.id
}

// Ident is the identifier that declares a variable or parameter (not
// a function or class declaration: see Node), nil when none.
func (b *Binding) Ident() *ast.Identifier {
	if b.decl == DeclFunc || b.decl == DeclClass {
		return nil
	}
	return b.id
}

// Func is the function of a function declaration, nil otherwise.
func (b *Binding) Func() *ast.FunctionLiteral {
	if b.decl != DeclFunc {
		return nil
	}
	f, _ := b.init.(*ast.FunctionLiteral)
	return f
}

// Changed reports whether anything but the initializer gives the name a
// value (an assignment, ++, a destructuring assignment, a mutation).
func (b *Binding) Changed() bool { return len(b.extra().assigns) > 0 || b.opaque }

// Unwrap strips optional chains and sequences: the expression that
// gives the value.
func Unwrap(e ast.Expression) ast.Expression { return unwrap(e) }

// PropKey is the string a non-computed property key names.
func PropKey(k ast.Expression) (string, bool) { return propKey(k) }

// PatternNames returns the names a binding target declares (a name, or
// every name of a destructuring pattern), in source order.
func PatternNames(t ast.Expression) []string {
	sc := newScope(nil)
	(&Model{}).declarePattern(t, Binding{decl: DeclLet}, sc, nil)
	names := make([]string, len(sc.binds))
	for i, b := range sc.binds {
		names[i] = b.name()
	}
	return names
}
