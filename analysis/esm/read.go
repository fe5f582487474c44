package esm

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/plugin-lsp/plugin-lsp/analysis/jslex"
)

// wrapPrefix makes top-level await parseable; offsets are shifted back.
const wrapPrefix = "(async function(){"

// maxDepth bounds the resolution of constants through one another.
const maxDepth = 32

// ReadExports reads a module's exports. It is a pure function of src and
// never panics (a panic in the parser becomes a syntax error).
func ReadExports(src []byte) (m *Module) {
	m = &Module{}
	defer func() {
		if e := recover(); e != nil {
			m.Tools = nil
			m.Errors = append(m.Errors, SyntaxError{Offset: 0, Message: fmt.Sprintf("cannot read module: %v", e)})
		}
	}()
	// Deep nesting would overflow goja's or esbuild's stack (fatal in Go):
	// measured first, with a tokenizer that keeps no stack.
	if e := jslex.CheckLimits(string(src)); e != nil {
		m.Errors = []SyntaxError{{Offset: e.Offset, Message: e.Message, Limit: true}}
		return m
	}
	p := prepare(src)
	m.Imports = p.imports
	m.AlwaysGate = p.gates
	switch {
	case p.esm:
		m.Kind = ESM
	case len(p.cjs) > 0:
		m.Kind = CommonJS
	}

	wrapped := wrapPrefix + string(p.code) + "\n})"
	body, err := parseWrapped(wrapped)
	r := &reader{src: src, p: p, m: m, decls: map[string]*decl{}}
	if err != nil {
		// Function bodies hold most of the syntax goja lacks and nothing
		// ReadExports needs: retry without them, and let esbuild decide
		// whether the module is valid.
		if body2, err2 := parseWrapped(wrapPrefix + string(p.relaxed()) + "\n})"); err2 == nil {
			if errs := esbuildErrors(src); len(errs) > 0 {
				m.Exports = p.exports
				m.Errors = errs
				r.cjs(nil)
				return m
			}
			body, err = body2, nil
		}
	}
	if err != nil {
		m.Exports = p.exports
		if errs := esbuildErrors(src); len(errs) > 0 {
			m.Errors = errs
		} else {
			off := len(src)
			if el, ok := err.(parser.ErrorList); ok && len(el) > 0 {
				off = offsetOf(wrapped, el[0].Position) - len(wrapPrefix)
				m.Unreadable = &Unknown{Span: r.clamp(Span{off, off}), Reason: "the module uses syntax this checker cannot read (" + el[0].Message + ")"}
			} else {
				m.Unreadable = &Unknown{Span: Span{0, 0}, Reason: "the module uses syntax this checker cannot read"}
			}
		}
		r.cjs(nil)
		return m
	}
	r.body = body
	r.declare()
	r.cjs(r.decls)
	r.exports()
	r.toolMap()
	r.defs()
	return m
}

// parseWrapped parses the wrapped module and returns the wrapper's body.
func parseWrapped(wrapped string) ([]ast.Statement, error) {
	prog, err := parser.ParseFile(nil, "module.js", wrapped, 0, parser.WithDisableSourceMaps)
	var body []ast.Statement
	if err == nil {
		wrapper := false
		if len(prog.Body) == 1 {
			if es, ok := prog.Body[0].(*ast.ExpressionStatement); ok {
				if fn, ok := es.Expression.(*ast.FunctionLiteral); ok {
					body, wrapper = fn.Body.List, true
				}
			}
		}
		if !wrapper { // a stray "})" closed our wrapper: let esbuild say why
			err = fmt.Errorf("unbalanced braces")
		}
	}
	return body, err
}

// offsetOf converts goja's 1-based line and byte column to an offset.
func offsetOf(s string, pos file.Position) int {
	off := 0
	for line := 1; line < pos.Line; line++ {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return len(s)
		}
		off += i + 1
	}
	return off + pos.Column - 1
}

// esbuildErrors returns esbuild's syntax errors for src, nil when esbuild
// accepts it.
func esbuildErrors(src []byte) []SyntaxError {
	res := api.Transform(string(src), api.TransformOptions{
		Loader: api.LoaderJS, Target: api.ESNext, LogLevel: api.LogLevelSilent,
		MinifyWhitespace: true, // output unused; indenting it is quadratic in depth
	})
	var out []SyntaxError
	lines := lineStarts(src)
	for _, e := range res.Errors {
		off := 0
		if l := e.Location; l != nil && l.Line >= 1 && l.Line <= len(lines) {
			off = min(lines[l.Line-1]+l.Column, len(src))
		}
		out = append(out, SyntaxError{Offset: off, Message: e.Text})
	}
	return out
}

func lineStarts(src []byte) []int {
	ls := []int{0}
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// decl is a top-level binding.
type decl struct {
	name  string
	init  ast.Expression // nil for a pattern, function or class
	konst bool
	from  string // the specifier when imported
	// imported is the name the other module exports ("default", "*").
	imported string
	// reassigned: a top-level statement assigns to it.
	reassigned bool
}

type reader struct {
	src   []byte
	p     *prepared
	m     *Module
	body  []ast.Statement
	decls map[string]*decl
	// stmtAt indexes the top-level statements by start offset.
	stmtAt map[int]ast.Statement
}

func (r *reader) off(idx file.Idx) int {
	o := int(idx) - 1 - len(wrapPrefix)
	return max(0, min(o, len(r.src)))
}

func (r *reader) span(n ast.Node) Span { return Span{r.off(n.Idx0()), r.off(n.Idx1())} }

func (r *reader) clamp(s Span) Span {
	s.Start = max(0, min(s.Start, len(r.src)))
	s.End = max(s.Start, min(s.End, len(r.src)))
	return s
}

func (r *reader) text(n ast.Node) string {
	s := r.span(n)
	t := strings.Join(strings.Fields(string(r.src[s.Start:s.End])), " ")
	if rs := []rune(t); len(rs) > 40 {
		t = string(rs[:37]) + "…"
	}
	return t
}

// spreadSpan covers a spread element with its "..." (goja's starts at the
// expression).
func (r *reader) spreadSpan(pr *ast.SpreadElement) Span {
	s := r.span(pr)
	i := s.Start
	for i > 0 && (r.src[i-1] == ' ' || r.src[i-1] == '\t' || r.src[i-1] == '\n' || r.src[i-1] == '\r') {
		i--
	}
	if i >= 3 && string(r.src[i-3:i]) == "..." {
		s.Start = i - 3
	}
	return s
}

// declare records the top-level bindings.
func (r *reader) declare() {
	for _, imp := range r.p.imports {
		for _, n := range imp.Names {
			r.decls[n.Local] = &decl{name: n.Local, from: imp.From, imported: n.Imported}
		}
	}
	for _, st := range r.body {
		switch st := st.(type) {
		case *ast.LexicalDeclaration:
			for _, b := range st.List {
				r.bind(b, st.Token == token.CONST)
			}
		case *ast.VariableStatement:
			for _, b := range st.List {
				r.bind(b, false)
			}
		case *ast.FunctionDeclaration:
			if st.Function.Name != nil {
				n := st.Function.Name.Name.String()
				r.decls[n] = &decl{name: n}
			}
		case *ast.ClassDeclaration:
			if st.Class.Name != nil {
				n := st.Class.Name.Name.String()
				r.decls[n] = &decl{name: n}
			}
		}
	}
	for _, st := range r.body {
		if es, ok := st.(*ast.ExpressionStatement); ok {
			if as, ok := es.Expression.(*ast.AssignExpression); ok {
				if id, ok := as.Left.(*ast.Identifier); ok {
					if d := r.decls[id.Name.String()]; d != nil {
						d.reassigned = true
					}
				}
			}
		}
	}
}

func (r *reader) bind(b *ast.Binding, konst bool) {
	if id, ok := b.Target.(*ast.Identifier); ok {
		n := id.Name.String()
		r.decls[n] = &decl{name: n, init: b.Initializer, konst: konst}
		return
	}
	for _, n := range patternNames(b.Target) {
		r.decls[n] = &decl{name: n}
	}
}

// patternNames returns the identifiers a destructuring pattern binds.
func patternNames(t ast.Expression) []string {
	switch t := t.(type) {
	case *ast.Identifier:
		return []string{t.Name.String()}
	case *ast.ObjectPattern:
		var out []string
		for _, p := range t.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				out = append(out, p.Name.Name.String())
			case *ast.PropertyKeyed:
				out = append(out, patternNames(p.Value)...)
			}
		}
		return append(out, patternNames(t.Rest)...)
	case *ast.ArrayPattern:
		var out []string
		for _, e := range t.Elements {
			out = append(out, patternNames(e)...)
		}
		return append(out, patternNames(t.Rest)...)
	case *ast.AssignExpression:
		return patternNames(t.Left)
	case *ast.Binding:
		return patternNames(t.Target)
	}
	return nil
}

// cjs keeps the CommonJS markers whose name is not a top-level binding
// (`const require = createRequire(import.meta.url)` is ESM).
func (r *reader) cjs(decls map[string]*decl) {
	var scopes []funcScope
	for _, mk := range r.p.cjs {
		name := mk.Text
		if i := strings.IndexAny(name, ".["); i >= 0 {
			name = name[:i]
		}
		if _, ok := decls[name]; ok {
			continue
		}
		if r.body != nil && r.m.Kind == ESM {
			if scopes == nil {
				scopes = r.scopes()
			}
			if shadowed(scopes, mk.Span.Start, name) {
				continue
			}
		}
		r.m.CommonJS = append(r.m.CommonJS, mk)
	}
	if r.m.Kind == CommonJS && len(r.m.CommonJS) == 0 {
		r.m.Kind = Script
	}
}

// exports completes the export list with the names of exported
// declarations, in source order.
func (r *reader) exports() {
	out := append([]Export(nil), r.p.exports...)
	for _, d := range r.p.decls {
		st := r.statementAt(d.Start)
		switch st := st.(type) {
		case *ast.LexicalDeclaration:
			out = append(out, r.bindingExports(st.List)...)
		case *ast.VariableStatement:
			out = append(out, r.bindingExports(st.List)...)
		case *ast.FunctionDeclaration:
			if id := st.Function.Name; id != nil {
				out = append(out, Export{Name: id.Name.String(), Span: r.span(id), Local: id.Name.String()})
			}
		case *ast.ClassDeclaration:
			if id := st.Class.Name; id != nil {
				out = append(out, Export{Name: id.Name.String(), Span: r.span(id), Local: id.Name.String()})
			}
		}
	}
	sortExports(out)
	r.m.Exports = out
}

func sortExports(es []Export) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
}

func (r *reader) bindingExports(list []*ast.Binding) []Export {
	var out []Export
	for _, b := range list {
		if id, ok := b.Target.(*ast.Identifier); ok {
			out = append(out, Export{Name: id.Name.String(), Span: r.span(id), Local: id.Name.String()})
			continue
		}
		s := r.span(b.Target)
		for _, n := range patternNames(b.Target) {
			out = append(out, Export{Name: n, Span: s, Local: n})
		}
	}
	return out
}

func (r *reader) statementAt(off int) ast.Statement {
	if r.stmtAt == nil {
		r.stmtAt = make(map[int]ast.Statement, len(r.body))
		for _, st := range r.body {
			r.stmtAt[r.off(st.Idx0())] = st
		}
	}
	return r.stmtAt[off]
}

// toolMap finds the tools (or default) export and reads it.
func (r *reader) toolMap() {
	r.m.Maps = map[string]*ToolMap{}
	for i := range r.m.Exports {
		ex := &r.m.Exports[i]
		if ex.Star {
			continue
		}
		if tm := r.readMap(ex, ex.Name == "tools" || ex.Name == "default"); tm != nil {
			r.m.Maps[ex.Name] = tm
		}
	}
	for _, name := range []string{"tools", "default"} {
		if tm, ok := r.m.Maps[name]; ok {
			r.m.Tools = tm
			return
		}
	}
	r.m.Tools = r.m.ExportedMap("tools") // export * from …, or nil
}

// defs reads every exported object (and re-exported binding) as a tool
// definition, for modules that import their definitions one by one.
func (r *reader) defs() {
	r.m.Defs = map[string]*Tool{}
	for i := range r.m.Exports {
		ex := &r.m.Exports[i]
		switch {
		case ex.Star:
		case ex.From != "":
			r.m.Defs[ex.Name] = &Tool{Name: ex.Name, KeySpan: ex.Span, RequiresKnown: true, ValueFrom: ex.From, ValueName: ex.Local}
		case ex.Local != "":
			id := &ast.Identifier{Name: unistr(ex.Local), Idx: file.Idx(ex.Span.Start + 1 + len(wrapPrefix))}
			if t := r.tool(prop{key: ex.Name, keySpan: ex.Span, value: id, kind: ast.PropertyKindValue}); t.Def || t.ValueFrom != "" {
				r.m.Defs[ex.Name] = t
			}
		case ex.Name == "default":
			if vs, ok := r.statementAt(r.p.defaultAt).(*ast.VariableStatement); ok && len(vs.List) == 1 {
				if t := r.tool(prop{key: ex.Name, keySpan: ex.Span, value: vs.List[0].Initializer, kind: ast.PropertyKindValue}); t.Def || t.ValueFrom != "" {
					r.m.Defs[ex.Name] = t
				}
			}
		}
	}
}

// readMap reads the value exported as ex as a tools map. Unless force is
// set it returns nil for a value that is neither an object nor from
// another module.
func (r *reader) readMap(ex *Export, force bool) *ToolMap {
	tm := &ToolMap{Export: ex.Name, ExportSpan: ex.Span, Span: ex.Span}
	if ex.From != "" {
		tm.Unknowable = append(tm.Unknowable, Unknown{Span: ex.Span, Reason: fmt.Sprintf("`%s` is re-exported from %q", ex.Name, ex.From), From: ex.From, Name: ex.Local})
		return tm
	}
	var expr ast.Expression
	local := ex.Local
	if local == "" && ex.Name == "default" { // export default <expression>
		if vs, ok := r.statementAt(r.p.defaultAt).(*ast.VariableStatement); ok && len(vs.List) == 1 {
			expr = vs.List[0].Initializer
		}
	} else {
		expr = &ast.Identifier{Name: unistr(local), Idx: file.Idx(ex.Span.Start + 1 + len(wrapPrefix))}
	}
	if expr == nil {
		if !force {
			return nil
		}
		tm.Unknowable = append(tm.Unknowable, Unknown{Span: ex.Span, Reason: "the default export cannot be read"})
		return tm
	}
	obj := &objReader{r: r, seen: map[string]bool{}}
	if !force {
		switch x := obj.resolve(expr, 0).(type) {
		case *ast.ObjectLiteral:
		case *ast.Identifier:
			if d := r.decls[x.Name.String()]; d == nil || d.from == "" {
				return nil
			}
		default:
			return nil
		}
	}
	props, lit := obj.collect(expr, 0)
	if local != "" { // reasons about the exported binding sit on the export
		for i, u := range obj.unknown {
			if u.Span.Start == ex.Span.Start {
				obj.unknown[i].Span = ex.Span
			}
		}
	}
	if lit != nil {
		tm.Span = r.span(lit)
	}
	// Top-level additions: tools.x = …, tools["x"] = …, Object.assign(tools, …).
	if local != "" {
		for _, st := range r.body {
			es, ok := st.(*ast.ExpressionStatement)
			if !ok {
				continue
			}
			props = append(props, obj.additions(es.Expression, local)...)
		}
	}
	tm.Unknowable = append(tm.Unknowable, obj.unknown...)
	for _, pr := range props {
		tm.Entries = append(tm.Entries, r.tool(pr))
	}
	return tm
}

// prop is one resolved property of an object expression.
type prop struct {
	key      string
	keySpan  Span
	computed bool
	value    ast.Expression
	kind     ast.PropertyKind
}

type objReader struct {
	r       *reader
	seen    map[string]bool
	unknown []Unknown
}

func (o *objReader) unknowable(n ast.Node, format string, args ...any) {
	o.unknown = append(o.unknown, Unknown{Span: o.r.span(n), Reason: fmt.Sprintf(format, args...)})
}

// resolve follows identifiers to their top-level initializer and unwraps
// Object.freeze; it returns the expression and the identifier's decl when
// the expression came through one.
func (o *objReader) resolve(e ast.Expression, depth int) ast.Expression {
	for ; depth < maxDepth; depth++ {
		switch x := e.(type) {
		case *ast.Identifier:
			d := o.r.decls[x.Name.String()]
			if d == nil || d.init == nil {
				return e
			}
			e = d.init
		case *ast.CallExpression:
			if isFreeze(x) && len(x.ArgumentList) == 1 {
				e = x.ArgumentList[0]
				continue
			}
			return e
		default:
			return e
		}
	}
	return e
}

func isFreeze(c *ast.CallExpression) bool {
	d, ok := c.Callee.(*ast.DotExpression)
	if !ok {
		return false
	}
	id, ok := d.Left.(*ast.Identifier)
	return ok && id.Name.String() == "Object" && d.Identifier.Name.String() == "freeze"
}

// collect returns the properties of an object expression, recording in
// o.unknown whatever it cannot see through. lit is the object literal the
// expression resolved to, if any.
func (o *objReader) collect(e ast.Expression, depth int) (props []prop, lit *ast.ObjectLiteral) {
	orig := e
	// Mark the constants followed on the way, so that a cycle of spreads
	// stops (nothing new down there).
	for x := e; ; {
		id, ok := x.(*ast.Identifier)
		if !ok {
			break
		}
		name := id.Name.String()
		if o.seen[name] {
			return nil, nil
		}
		o.seen[name] = true
		defer delete(o.seen, name)
		d := o.r.decls[name]
		if d == nil || d.init == nil {
			break
		}
		x = d.init
	}
	e = o.resolve(e, depth)
	switch x := e.(type) {
	case *ast.ObjectLiteral:
		lit = x
	case *ast.Identifier:
		d := o.r.decls[x.Name.String()]
		switch {
		case d != nil && d.from != "":
			o.unknowable(orig, "`%s` is imported from %q", x.Name, d.from)
			o.unknown[len(o.unknown)-1].From, o.unknown[len(o.unknown)-1].Name = d.from, d.imported
		case d == nil:
			o.unknowable(orig, "`%s` is not a top-level constant of the module", x.Name)
		default:
			o.unknowable(orig, "`%s` is not an object literal", x.Name)
		}
		return nil, nil
	case *ast.CallExpression:
		o.unknowable(orig, "call of `%s`", o.r.text(x))
		return nil, nil
	case *ast.DotExpression:
		o.unknowable(orig, "`%s` is not an object literal", o.r.text(orig))
		if id, ok := x.Left.(*ast.Identifier); ok { // ns.member of import * as ns
			if d := o.r.decls[id.Name.String()]; d != nil && d.from != "" && d.imported == "*" {
				u := &o.unknown[len(o.unknown)-1]
				u.Reason = fmt.Sprintf("`%s` is imported from %q", o.r.text(orig), d.from)
				u.From, u.Name = d.from, x.Identifier.Name.String()
			}
		}
		return nil, nil
	default:
		o.unknowable(orig, "`%s` is not an object literal", o.r.text(orig))
		return nil, nil
	}
	for _, pr := range lit.Value {
		switch pr := pr.(type) {
		case *ast.PropertyKeyed:
			key, ok := o.key(pr.Key, pr.Computed)
			if !ok {
				o.unknowable(pr.Key, "computed key `%s`", o.r.text(pr.Key))
				continue
			}
			props = append(props, prop{key: key, keySpan: o.r.span(pr.Key), computed: pr.Computed, value: pr.Value, kind: pr.Kind})
		case *ast.PropertyShort:
			id := pr.Name
			props = append(props, prop{key: id.Name.String(), keySpan: o.r.span(&id), value: &id, kind: ast.PropertyKindValue})
		case *ast.SpreadElement:
			if depth >= maxDepth {
				o.unknowable(pr, "spread `%s` nests too deep", o.r.text(pr))
				continue
			}
			before := len(o.unknown)
			inner, _ := o.collect(pr.Expression, depth+1)
			if len(o.unknown) > before { // one reason, on the spread itself
				u := Unknown{Span: o.r.spreadSpan(pr), Reason: fmt.Sprintf("spread of `%s`", o.r.text(pr.Expression))}
				if len(o.unknown) == before+1 { // keep where to look
					u.From, u.Name = o.unknown[before].From, o.unknown[before].Name
				}
				o.unknown = append(o.unknown[:before], u)
			}
			props = append(props, inner...)
		}
	}
	return props, lit
}

// key returns a property key's string value.
func (o *objReader) key(k ast.Expression, computed bool) (string, bool) {
	if !computed {
		switch k := k.(type) {
		case *ast.StringLiteral:
			return k.Value.String(), true
		case *ast.NumberLiteral:
			return fmt.Sprint(k.Value), true
		case *ast.Identifier:
			return k.Name.String(), true
		}
		return "", false
	}
	return o.constString(k, 0)
}

// constString evaluates a constant string expression: literals, template
// literals and + of constants, and top-level const strings.
func (o *objReader) constString(e ast.Expression, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	switch x := e.(type) {
	case *ast.StringLiteral:
		return x.Value.String(), true
	case *ast.NumberLiteral:
		return fmt.Sprint(x.Value), true
	case *ast.TemplateLiteral:
		if x.Tag != nil {
			return "", false
		}
		var b strings.Builder
		for i, el := range x.Elements {
			b.WriteString(el.Parsed.String())
			if i < len(x.Expressions) {
				s, ok := o.constString(x.Expressions[i], depth+1)
				if !ok {
					return "", false
				}
				b.WriteString(s)
			}
		}
		return b.String(), true
	case *ast.BinaryExpression:
		if x.Operator != token.PLUS {
			return "", false
		}
		a, ok := o.constString(x.Left, depth+1)
		if !ok {
			return "", false
		}
		b, ok := o.constString(x.Right, depth+1)
		return a + b, ok
	case *ast.Identifier:
		// const, or var/let never reassigned at the top level (bundlers
		// turn const into var).
		d := o.r.decls[x.Name.String()]
		if d == nil || d.init == nil || (!d.konst && d.reassigned) {
			return "", false
		}
		return o.constString(d.init, depth+1)
	}
	return "", false
}

// additions reads a top-level statement that adds to the map named local.
func (o *objReader) additions(e ast.Expression, local string) []prop {
	isLocal := func(e ast.Expression) bool {
		id, ok := e.(*ast.Identifier)
		return ok && id.Name.String() == local
	}
	switch x := e.(type) {
	case *ast.AssignExpression:
		if x.Operator != token.ASSIGN {
			return nil
		}
		switch l := x.Left.(type) {
		case *ast.DotExpression:
			if isLocal(l.Left) {
				return []prop{{key: l.Identifier.Name.String(), keySpan: o.r.span(&l.Identifier), value: x.Right, kind: ast.PropertyKindValue}}
			}
		case *ast.BracketExpression:
			if isLocal(l.Left) {
				if k, ok := o.constString(l.Member, 0); ok {
					return []prop{{key: k, keySpan: o.r.span(l.Member), computed: true, value: x.Right, kind: ast.PropertyKindValue}}
				}
				o.unknowable(l, "`%s` adds a name that is not constant", o.r.text(l))
			}
		}
	case *ast.CallExpression:
		d, ok := x.Callee.(*ast.DotExpression)
		if !ok || len(x.ArgumentList) == 0 || !isLocal(x.ArgumentList[0]) {
			return nil
		}
		if id, ok := d.Left.(*ast.Identifier); ok && id.Name.String() == "Object" && d.Identifier.Name.String() == "assign" {
			var out []prop
			for _, a := range x.ArgumentList[1:] {
				ps, _ := o.collect(a, 1)
				out = append(out, ps...)
			}
			return out
		}
	}
	return nil
}

// tool reads one entry's definition.
func (r *reader) tool(pr prop) *Tool {
	t := &Tool{Name: pr.key, KeySpan: pr.keySpan, Computed: pr.computed, RequiresKnown: true}
	if pr.value == nil || pr.kind != ast.PropertyKindValue {
		return t
	}
	t.ValueSpan = r.span(pr.value)
	o := &objReader{r: r, seen: map[string]bool{}}
	switch v := o.resolve(pr.value, 0).(type) {
	case *ast.ObjectLiteral:
	case *ast.Identifier: // imported from another module
		if d := r.decls[v.Name.String()]; d != nil && d.from != "" && d.imported != "*" {
			t.ValueFrom, t.ValueName = d.from, d.imported
		}
		return t
	case *ast.DotExpression: // ns.member of import * as ns
		if id, ok := v.Left.(*ast.Identifier); ok {
			if d := r.decls[id.Name.String()]; d != nil && d.from != "" && d.imported == "*" {
				t.ValueFrom, t.ValueName = d.from, v.Identifier.Name.String()
			}
		}
		return t
	default:
		return t
	}
	props, _ := o.collect(pr.value, 0)
	t.Def = true
	t.DefUnknowable = o.unknown
	for _, p := range props {
		switch p.key {
		case "description":
			t.Description = true
		case "inputJsonSchema":
			t.InputSchema = true
		case "execute":
			t.Execute = true
		case "requires":
			t.RequiresSpan = r.span(p.value)
			t.Requires, t.RequiresKnown = nil, true
			arr, ok := o.resolve(p.value, 0).(*ast.ArrayLiteral)
			if !ok {
				t.RequiresKnown = false
				continue
			}
			for _, el := range arr.Value {
				if s, ok := o.constString(el, 0); ok && el != nil {
					t.Requires = append(t.Requires, Str{s, r.span(el)})
				} else {
					t.RequiresKnown = false
				}
			}
		case "needsApproval":
			t.NeedsApproval = r.approval(o, p)
		case "alwaysGate":
			s := p.keySpan
			t.AlwaysGateSpan = &s
		}
	}
	return t
}

func (r *reader) approval(o *objReader, p prop) *Approval {
	a := &Approval{KeySpan: p.keySpan, ValueSpan: r.span(p.value), Kind: "other"}
	if p.kind == ast.PropertyKindMethod {
		a.Kind = "function"
		return a
	}
	switch v := o.resolve(p.value, 0).(type) {
	case *ast.BooleanLiteral:
		a.Kind, a.Value = "boolean", v.Value
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
		a.Kind = "function"
	case *ast.StringLiteral, *ast.TemplateLiteral:
		a.Kind = "string"
		if s, ok := o.constString(v, 0); ok {
			a.Names = []Str{{s, r.span(v)}}
		}
	case *ast.ObjectLiteral:
		a.Kind = "object"
		sub := &objReader{r: r, seen: map[string]bool{}}
		ps, _ := sub.collect(v, 0)
		for _, q := range ps {
			a.Names = append(a.Names, Str{q.key, q.keySpan})
		}
	case *ast.ArrayLiteral:
		a.Kind = "array"
		for _, el := range v.Value {
			if s, ok := o.constString(el, 0); ok && el != nil {
				a.Names = append(a.Names, Str{s, r.span(el)})
			}
		}
	}
	return a
}
