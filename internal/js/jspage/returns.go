package jspage

// Where the default export's value comes from: the return statements of
// the default export function (its own, not those of functions nested in
// it), or an arrow function's expression body. The runner places a
// ResultError there.

import (
	"github.com/dop251/goja/ast"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
)

// maxReturnDepth bounds the statement nesting followed (the parser's own
// limits keep real pages far below it).
const maxReturnDepth = 200

// defaultReturns fills DefaultExport.Returns from the function the
// default export is (fn: a function or arrow literal, or nil).
func (a *analyzer) defaultReturns(fn ast.Expression) {
	de := &a.page.DefaultExport
	switch f := jsfront.Unwrap(fn).(type) {
	case *ast.FunctionLiteral:
		if f.Body != nil {
			a.returns(f.Body.List, 0)
		}
	case *ast.ArrowFunctionLiteral:
		switch b := f.Body.(type) {
		case *ast.BlockStatement:
			a.returns(b.List, 0)
		case *ast.ExpressionBody:
			if s := a.start(b.Expression); s >= 0 {
				de.Returns = append(de.Returns, Span{Start: s, End: s})
			}
		}
	}
}

// returns collects the return statements of a function body: statements
// only (a return inside an expression belongs to a nested function).
func (a *analyzer) returns(list []ast.Statement, depth int) {
	if depth > maxReturnDepth {
		return
	}
	for _, s := range list {
		a.returnsIn(s, depth+1)
	}
}

func (a *analyzer) returnsIn(s ast.Statement, depth int) {
	if s == nil || depth > maxReturnDepth {
		return
	}
	switch x := s.(type) {
	case *ast.ReturnStatement:
		if st := a.start(x); st >= 0 {
			de := &a.page.DefaultExport
			de.Returns = append(de.Returns, Span{Start: st, End: st + len("return")})
		}
	case *ast.BlockStatement:
		a.returns(x.List, depth)
	case *ast.IfStatement:
		a.returnsIn(x.Consequent, depth+1)
		a.returnsIn(x.Alternate, depth+1)
	case *ast.ForStatement:
		a.returnsIn(x.Body, depth+1)
	case *ast.ForInStatement:
		a.returnsIn(x.Body, depth+1)
	case *ast.ForOfStatement:
		a.returnsIn(x.Body, depth+1)
	case *ast.WhileStatement:
		a.returnsIn(x.Body, depth+1)
	case *ast.DoWhileStatement:
		a.returnsIn(x.Body, depth+1)
	case *ast.WithStatement:
		a.returnsIn(x.Body, depth+1)
	case *ast.LabelledStatement:
		a.returnsIn(x.Statement, depth+1)
	case *ast.SwitchStatement:
		for _, c := range x.Body {
			a.returns(c.Consequent, depth+1)
		}
	case *ast.TryStatement:
		if x.Body != nil {
			a.returns(x.Body.List, depth+1)
		}
		if x.Catch != nil && x.Catch.Body != nil {
			a.returns(x.Catch.Body.List, depth+1)
		}
		if x.Finally != nil {
			a.returns(x.Finally.List, depth+1)
		}
	}
}
