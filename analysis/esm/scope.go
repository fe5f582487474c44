package esm

import (
	"reflect"

	"github.com/dop251/goja/ast"
)

// A CommonJS marker inside a function may name that function's own
// parameter or local: esbuild's bundles wrap every CommonJS dependency in
// `__commonJS({ "path"(exports, module) { module.exports = … } })`, which
// is valid ESM. scope finds, for the functions of the module, the names
// each declares, so that such markers are not mistaken for CommonJS.

// funcScope is one function's span and the names it declares (parameters,
// its name, and every declaration in its body, nested blocks included).
type funcScope struct {
	span  Span
	names map[string]bool
}

// astPkg is the package of goja's AST types: walkAST descends into those
// only (TestASTPackage keeps it right).
const astPkg = "github.com/dop251/goja/ast"

// walkAST calls visit for every node reachable from v (pre-order); visit
// returns false to skip a node's children. It relies on reflection because
// goja's AST has no visitor.
func walkAST(v reflect.Value, visit func(ast.Node) bool, depth int) {
	if depth > 10000 {
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walkAST(v.Elem(), visit, depth+1)
		}
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != astPkg {
			return
		}
		if n, ok := v.Interface().(ast.Node); ok && !visit(n) {
			return
		}
		walkAST(v.Elem(), visit, depth+1)
	case reflect.Struct:
		if v.Type().PkgPath() != astPkg {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanInterface() {
				walkAST(f, visit, depth+1)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkAST(v.Index(i), visit, depth+1)
		}
	}
}

// scopes returns every function of the body with the names it declares.
func (r *reader) scopes() []funcScope {
	var out []funcScope
	add := func(n ast.Node, name *ast.Identifier, params *ast.ParameterList, body ast.Node) {
		fs := funcScope{span: r.span(n), names: map[string]bool{}}
		if name != nil {
			fs.names[name.Name.String()] = true
		}
		if params != nil {
			for _, b := range params.List {
				for _, p := range patternNames(b.Target) {
					fs.names[p] = true
				}
			}
			for _, p := range patternNames(params.Rest) {
				fs.names[p] = true
			}
		}
		if body != nil {
			walkAST(reflect.ValueOf(body), func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Binding:
					for _, p := range patternNames(n.Target) {
						fs.names[p] = true
					}
				case *ast.FunctionLiteral:
					if n.Name != nil {
						fs.names[n.Name.Name.String()] = true
					}
				case *ast.ClassLiteral:
					if n.Name != nil {
						fs.names[n.Name.Name.String()] = true
					}
				}
				return true
			}, 0)
		}
		out = append(out, fs)
	}
	walkAST(reflect.ValueOf(r.body), func(n ast.Node) bool {
		switch f := n.(type) {
		case *ast.FunctionLiteral:
			add(f, nil, f.ParameterList, f.Body)
		case *ast.ArrowFunctionLiteral:
			add(f, nil, f.ParameterList, f.Body)
		}
		return true
	}, 0)
	return out
}

// shadowed reports whether a function enclosing off declares name.
func shadowed(scopes []funcScope, off int, name string) bool {
	for _, s := range scopes {
		if s.span.Start <= off && off < s.span.End && s.names[name] {
			return true
		}
	}
	return false
}
