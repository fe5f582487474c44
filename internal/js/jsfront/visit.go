package jsfront

import "github.com/dop251/goja/ast"

// Visitor is an optional extension of Hooks: a consumer whose hooks also
// implement it is called with every expression and statement the walk
// visits, in the scope it is in, before the walk goes into it. Binding
// patterns and the targets of a destructuring assignment are not visited
// as expressions (the Assign hook and Visitor.Expr see the assignment
// whole); a call's callee is visited only when it is not a name.
type Visitor interface {
	Expr(e ast.Expression, sc *Scope)
	Stmt(s ast.Statement, sc *Scope)
}

// ThisObject is the object literal `this` is in sc: the object a method
// (a function-valued property, a getter, a setter) is written in; nil
// when `this` is anything else (a class instance, a plain function's
// caller's choice, undefined at the top level).
func (s *Scope) ThisObject() *ast.ObjectLiteral {
	for ; s != nil; s = s.parent {
		if s.this != nil {
			return s.this.obj
		}
	}
	return nil
}

// Param returns, for a parameter, the function it belongs to (an
// *ast.FunctionLiteral or *ast.ArrowFunctionLiteral), its index, whether
// it is the ...rest parameter and its default value; fn is nil for
// anything else (`arguments` included).
func (b *Binding) Param() (fn ast.Expression, index int, rest bool, def ast.Expression) {
	if b.decl != DeclParam || b.owner == nil {
		return nil, 0, false, nil
	}
	return b.owner.node, int(b.pidx), b.rest, b.extra().pdef
}

// IterOf is what a for-of loop variable iterates over, with its scope;
// nil when b is not one.
func (b *Binding) IterOf() (ast.Expression, *Scope) {
	r := b.extra()
	return r.iterOf, r.iterSc
}

// Returns calls each with every expression fn returns (an arrow's
// expression body included) and its scope; a bare `return;` gives nil.
func (a *Model) Returns(fn ast.Node, each func(e ast.Expression, sc *Scope)) {
	f := a.fns[fn]
	if f == nil {
		return
	}
	for _, r := range f.rets {
		each(r.e, r.sc)
	}
}

// ArgumentsOf is the function whose `arguments` b is, nil when b is not
// an `arguments` object.
func (b *Binding) ArgumentsOf() *ast.FunctionLiteral {
	if b.id != nil || b.decl != DeclParam || b.scope == nil {
		return nil
	}
	return b.scope.fn
}
