package jspage

// What a page does with the host API, found during jsfront's walk
// (analyzer implements jsfront.Hooks): host calls, header names set in
// code, credential-like literals, and the default export.

import (
	"strings"

	"github.com/dop251/goja/ast"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// run walks the program (the bundle's top level) with jsfront's model,
// collecting what the hooks below see, then evaluates the fetch URLs.
func (a *analyzer) run(top []ast.Statement) {
	sc := a.m.Declare(top)
	a.findDefaultExport(top, sc)
	a.m.Walk(top, sc)
	a.m.Resolve(a.defaultBinding)
	phase("walk")
	a.resolveURLs()
	phase("urls")
}

// hostInfo is what a binding holds when it is a host object or method,
// worked out once (classify).
type hostInfo struct {
	state      int // 0 new, 1 classifying, 2 done
	hostObj    string
	hostObject string // with hostMethod: the object of a method alias
	hostMethod string
}

func (a *analyzer) host(b *jsfront.Binding) *hostInfo {
	h := a.hosts[b]
	if h == nil {
		h = &hostInfo{}
		a.hosts[b] = h
	}
	return h
}

// Host objects and the global object as the page names them.
const (
	objHTTP        = "http"
	objCollections = "collections"
	objGlobal      = "globalThis"
)

// ---- jsfront.Hooks ----

// Call records a host call.
func (a *analyzer) Call(c *ast.CallExpression, sc *jsfront.Scope) {
	a.calleeGlobal(c.Callee, sc)
	a.callSite(c.Callee)
	a.call(c, sc)
}

// callSite records the span of a callee: from its start to the end of
// its last name (a.b(x).c ends at c), or its own tokens otherwise.
func (a *analyzer) callSite(callee ast.Expression) {
	callee = jsfront.Unwrap(callee)
	st := a.start(callee)
	if st < 0 {
		return
	}
	end := -1
	switch x := callee.(type) {
	case *ast.DotExpression:
		end = a.tokSpan(&x.Identifier).End
	case *ast.PrivateDotExpression:
		end = a.tokSpan(&x.Identifier).End
	case *ast.Identifier:
		end = a.tokSpan(x).End
	}
	if end <= st {
		end = calleeEnd(a.ts, st)
	}
	a.page.CallSites = append(a.page.CallSites, CallSite{Callee: Span{Start: st, End: end}})
}

// New records the names of new Headers({ … }).
func (a *analyzer) New(n *ast.NewExpression, sc *jsfront.Scope) {
	a.calleeGlobal(n.Callee, sc)
	a.newExpr(n, sc)
}

// Assign records headers.K = v.
func (a *analyzer) Assign(x *ast.AssignExpression, sc *jsfront.Scope) { a.assign(x, sc) }

// Binding records const headers = { K: v }.
func (a *analyzer) Binding(b *ast.Binding, sc *jsfront.Scope) {
	if id, ok := b.Target.(*ast.Identifier); ok && strings.Contains(strings.ToLower(id.Name.String()), "header") {
		if _, isObj := jsfront.Unwrap(b.Initializer).(*ast.ObjectLiteral); isObj {
			a.headerObject(b.Initializer, sc)
		}
	}
}

// Property records { headers: { K: v } }.
func (a *analyzer) Property(p *ast.PropertyKeyed, sc *jsfront.Scope) {
	if k, ok := jsfront.PropKey(p.Key); ok && strings.EqualFold(k, "headers") {
		a.headerObject(p.Value, sc)
	}
}

// Func: nothing to record.
func (a *analyzer) Func(ast.Expression, *jsfront.Scope) {}

// Ident records a use of a global the sandbox lacks (globals.go).
func (a *analyzer) Ident(id *ast.Identifier, sc *jsfront.Scope) { a.globalRef(id, sc) }

// String records a credential-like string literal.
func (a *analyzer) String(s *ast.StringLiteral) { a.stringToken(s) }

// Template records a credential-like template literal.
func (a *analyzer) Template(t *ast.TemplateLiteral) { a.templateTokens(t) }

// findDefaultExport fills page.DefaultExport from "var __def__ = X" or
// the "export { x as default }" alias.
func (a *analyzer) findDefaultExport(top []ast.Statement, sc *jsfront.Scope) {
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
			a.defaultBinding = sc.Own(defaultVar)
			a.defaultReturns(funcOf(vs.List[0].Initializer, sc))
			if st := a.toTS(a.prep.defaultDecl); st >= 0 {
				de.Span = Span{Start: st, End: st + len("export default")}
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
		if b := sc.Own(a.prep.defaultAlias); b != nil {
			de.Kind = a.bindingKind(b, 0)
			c, isClass := jsfront.Unwrap(b.Init()).(*ast.ClassLiteral)
			if b.Node() != nil {
				de.Span = a.tokSpan(b.Node())
			} else if isClass && c.Name != nil {
				de.Span = a.tokSpan(c.Name)
			} else if isClass && b.Ident() != nil && a.tokSpan(b.Ident()).End > 0 {
				// `export default class Tool` is `var Tool = class {…}` in
				// esbuild's output: the name is where the page names it.
				de.Span = a.tokSpan(b.Ident())
			} else if b.Init() != nil {
				de.Span = a.tokSpan(b.Init())
			}
			a.defaultBinding = b
			a.defaultReturns(bindingFunc(b))
		}
		if de.Span.End == 0 {
			if st := a.toTS(a.prep.aliasAt); st >= 0 {
				de.Span = Span{Start: st, End: jslex.TokenEnd(a.ts, st)}
			}
		}
	}
}

// bindingFunc is the function a binding declares or is initialised with,
// through a few plain aliases (const f = g), nil otherwise.
func bindingFunc(b *jsfront.Binding) ast.Expression {
	for range 8 {
		if f := b.Func(); f != nil {
			return f
		}
		if b.Init() == nil || b.Destructured() || b.Changed() {
			return nil
		}
		id, ok := jsfront.Unwrap(b.Init()).(*ast.Identifier)
		if !ok {
			return b.Init()
		}
		if b = b.Scope().Lookup(id.Name.String()); b == nil {
			return nil
		}
	}
	return nil
}

// funcOf is the function an expression is: a literal, or a binding's.
func funcOf(e ast.Expression, sc *jsfront.Scope) ast.Expression {
	if id, ok := jsfront.Unwrap(e).(*ast.Identifier); ok {
		if b := sc.Lookup(id.Name.String()); b != nil {
			return bindingFunc(b)
		}
		return nil
	}
	return e
}

func (a *analyzer) bindingKind(b *jsfront.Binding, depth int) string {
	switch b.Kind() {
	case jsfront.DeclFunc:
		return "function"
	case jsfront.DeclClass:
		return "class"
	case jsfront.DeclParam:
		return "unknown"
	}
	if b.Init() == nil || b.Destructured() {
		return "unknown"
	}
	return a.valueKind(b.Init(), b.Scope(), depth+1)
}

func (a *analyzer) valueKind(e ast.Expression, sc *jsfront.Scope, depth int) string {
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
		if b := sc.Lookup(x.Name.String()); b != nil {
			return a.bindingKind(b, depth)
		}
	}
	return "unknown"
}

// classify works out what a binding holds, once.
func (a *analyzer) classify(b *jsfront.Binding) *hostInfo {
	if b.Init() == nil {
		return &plainHost // no initializer: not a host object or method
	}
	h := a.host(b)
	if h.state != 0 {
		return h
	}
	h.state = 1
	a.classifyInit(b, h)
	h.state = 2
	if *h == plainHost {
		a.hosts[b] = &plainHost // most bindings: one shared answer
	}
	return h
}

// plainHost is what a binding that holds no host object or method
// classifies as (read only).
var plainHost = hostInfo{state: 2}

// classifyInit fills h from b's initializer.
func (a *analyzer) classifyInit(b *jsfront.Binding, h *hostInfo) {
	if b.Destructured() {
		obj := a.resolveObj(b.Init(), b.Scope())
		switch obj {
		case objHTTP, objCollections:
			h.hostObject, h.hostMethod = obj, b.Key()
		case objGlobal:
			if b.Key() == objHTTP || b.Key() == objCollections || b.Key() == objGlobal {
				h.hostObj = b.Key()
			}
		}
		return
	}
	if obj := a.resolveObj(b.Init(), b.Scope()); obj != "" {
		h.hostObj = obj
		return
	}
	if obj, m, ok := a.resolveMethodRef(b.Init(), b.Scope()); ok && m != "" {
		h.hostObject, h.hostMethod = obj, m
	}
}

// resolveObj returns "http", "collections" or "globalThis" when e
// denotes that object, "" otherwise.
func (a *analyzer) resolveObj(e ast.Expression, sc *jsfront.Scope) string {
	switch x := jsfront.Unwrap(e).(type) {
	case *ast.Identifier:
		name := x.Name.String()
		if b := sc.Lookup(name); b != nil {
			return a.classify(b).hostObj
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
			if v := a.m.Eval(x.Member, sc); v.Kind == jsfront.Exact {
				switch v.S {
				case objHTTP, objCollections, objGlobal:
					return v.S
				}
			}
		}
	}
	return ""
}

// resolveMethodRef reports whether e denotes a host method (http.fetch,
// h["fetch"], an alias, http.fetch.bind(http)). method is "" for a
// computed member.
func (a *analyzer) resolveMethodRef(e ast.Expression, sc *jsfront.Scope) (obj, method string, ok bool) {
	switch x := jsfront.Unwrap(e).(type) {
	case *ast.DotExpression:
		if o := a.resolveObj(x.Left, sc); o == objHTTP || o == objCollections {
			return o, x.Identifier.Name.String(), true
		}
	case *ast.BracketExpression:
		if o := a.resolveObj(x.Left, sc); o == objHTTP || o == objCollections {
			if v := a.m.Eval(x.Member, sc); v.Kind == jsfront.Exact {
				return o, v.S, true
			}
			return o, "", true
		}
	case *ast.Identifier:
		if b := sc.Lookup(x.Name.String()); b != nil {
			if h := a.classify(b); h.hostMethod != "" {
				return h.hostObject, h.hostMethod, true
			}
		}
	case *ast.CallExpression: // http.fetch.bind(http)
		if d, isDot := jsfront.Unwrap(x.Callee).(*ast.DotExpression); isDot && d.Identifier.Name.String() == "bind" {
			return a.resolveMethodRef(d.Left, sc)
		}
	}
	return "", "", false
}

func (a *analyzer) call(c *ast.CallExpression, sc *jsfront.Scope) {
	callee := c.Callee
	args := c.ArgumentList
	obj, method, ok := a.resolveMethodRef(callee, sc)
	if !ok {
		// http.fetch.call(thisArg, url, init)
		d, isDot := jsfront.Unwrap(callee).(*ast.DotExpression)
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
	hc.Callee = Span{Start: start, End: trimOptional(a.ts, start, calleeEnd(a.ts, start))}
	if end, found := callEnd(a.ts, start); found {
		hc.Span = Span{Start: start, End: end}
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
			p := pendingURL{call: len(a.page.Calls), e: args[0], sc: sc}
			if len(args) > 1 {
				p.init = args[1]
			}
			a.pending = append(a.pending, p)
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

// fetchMethod reads init.method: "GET" when absent, "" when not one
// static value.
func (a *analyzer) fetchMethod(init ast.Expression, sc *jsfront.Scope) string {
	method := ""
	for _, v := range a.m.Member(init, "method", sc) {
		m := "GET"
		switch {
		case v.Kind == jsfront.Exact:
			m = strings.ToUpper(v.S)
		case !v.Undefined:
			return ""
		}
		if method != "" && m != method {
			return ""
		}
		method = m
	}
	return method
}

// headerObject records the keys of { headers: { K: v } } and
// { headers: new Headers({ K: v }) }.
func (a *analyzer) headerObject(v ast.Expression, sc *jsfront.Scope) {
	switch x := jsfront.Unwrap(v).(type) {
	case *ast.ObjectLiteral:
		for _, p := range x.Value {
			switch q := p.(type) {
			case *ast.PropertyKeyed:
				if q.Computed {
					if s := a.m.Eval(q.Key, sc); s.Kind == jsfront.Exact {
						a.addHeader(s.S, q.Key)
					}
					continue
				}
				if k, ok := jsfront.PropKey(q.Key); ok {
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
				if s := a.m.Eval(pair.Value[0], sc); s.Kind == jsfront.Exact {
					a.addHeader(s.S, pair.Value[0])
				}
			}
		}
	case *ast.Identifier:
		if b := sc.Lookup(x.Name.String()); b != nil && b.Init() != nil && !b.Destructured() && b.Kind() == jsfront.DeclConst {
			if _, isObj := jsfront.Unwrap(b.Init()).(*ast.ObjectLiteral); isObj {
				return // walked where it is declared when it is a headers object
			}
		}
	}
}

func (a *analyzer) addHeader(name string, at ast.Node) {
	a.page.Headers = append(a.page.Headers, Header{Name: name, Span: a.tokSpan(at)})
}

func (a *analyzer) newExpr(n *ast.NewExpression, sc *jsfront.Scope) {
	id, ok := n.Callee.(*ast.Identifier)
	if !ok || id.Name.String() != "Headers" || len(n.ArgumentList) == 0 || sc.Lookup("Headers") != nil {
		return
	}
	a.headerObject(n.ArgumentList[0], sc)
}

// headerCall records h.set("K", v) / h.append("K", v) on an object whose
// name mentions headers.
func (a *analyzer) headerCall(c *ast.CallExpression, sc *jsfront.Scope) {
	d, ok := jsfront.Unwrap(c.Callee).(*ast.DotExpression)
	if !ok || len(c.ArgumentList) < 2 {
		return
	}
	if m := d.Identifier.Name.String(); m != "set" && m != "append" {
		return
	}
	if !strings.Contains(strings.ToLower(exprName(d.Left)), "header") && !a.isHeadersObject(d.Left, sc) {
		return
	}
	if s := a.m.Eval(c.ArgumentList[0], sc); s.Kind == jsfront.Exact {
		a.addHeader(s.S, c.ArgumentList[0])
	}
}

// assign records headers.K = v and h["K"] = v on an object whose name
// mentions headers.
func (a *analyzer) assign(x *ast.AssignExpression, sc *jsfront.Scope) {
	switch l := x.Left.(type) {
	case *ast.DotExpression:
		if strings.Contains(strings.ToLower(exprName(l.Left)), "header") {
			a.addHeader(l.Identifier.Name.String(), &l.Identifier)
		}
	case *ast.BracketExpression:
		if strings.Contains(strings.ToLower(exprName(l.Left)), "header") {
			if s := a.m.Eval(l.Member, sc); s.Kind == jsfront.Exact {
				a.addHeader(s.S, l.Member)
			}
		}
	}
}

// exprName is the last name of an identifier or member chain.
func exprName(e ast.Expression) string {
	switch x := jsfront.Unwrap(e).(type) {
	case *ast.Identifier:
		return x.Name.String()
	case *ast.DotExpression:
		return x.Identifier.Name.String()
	}
	return ""
}

// isHeadersObject reports whether e is a name bound to new Headers(…).
func (a *analyzer) isHeadersObject(e ast.Expression, sc *jsfront.Scope) bool {
	id, ok := jsfront.Unwrap(e).(*ast.Identifier)
	if !ok {
		return false
	}
	b := sc.Lookup(id.Name.String())
	if b == nil || b.Init() == nil || b.Destructured() {
		return false
	}
	n, ok := jsfront.Unwrap(b.Init()).(*ast.NewExpression)
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
	h.Remove = Span{Start: start, End: end}
}
