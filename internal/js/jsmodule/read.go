package jsmodule

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

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
	prog, perr := jsfront.Parse(string(src), jslex.Options{DefaultVar: defaultVar, KeepNamedDefault: true, DynamicImport: true})
	p := prepare(src, prog.Lex)
	m.Imports = p.imports
	m.AlwaysGate = p.gates
	switch {
	case p.esm:
		m.Kind = ESM
	case len(p.cjs) > 0:
		m.Kind = CommonJS
	}
	r := &reader{src: src, p: p, m: m, prog: prog, imports: map[string]ImportName{}, from: map[string]string{}, shadowedAt: map[int]bool{},
		added: map[string][]prop{}}
	if perr != nil {
		// Function bodies hold most of the syntax goja lacks and nothing
		// ReadExports needs: retry without them, and let esbuild decide
		// whether the module is valid.
		if prog.ParseCode(p.relaxed(false)) == nil || prog.ParseCode(p.relaxed(true)) == nil {
			if errs := esbuildErrors(src); len(errs) > 0 {
				m.Exports = p.exports
				m.Errors = errs
				r.cjs()
				return m
			}
			r.relaxedBy = perr.Message
			perr = nil
		}
	}
	if perr != nil {
		m.Exports = p.exports
		if errs := esbuildErrors(src); len(errs) > 0 {
			m.Errors = errs
		} else {
			m.Unreadable = &Unknown{Span: Span{Start: perr.Offset, End: perr.Offset}, Reason: "the module uses syntax this checker cannot read (" + perr.Message + ")"}
		}
		r.cjs()
		return m
	}
	r.body = prog.Body
	r.declare()
	r.cjs()
	r.exports()
	r.toolMap()
	r.defs()
	r.protectExports()
	return m
}

// esbuildErrors returns esbuild's syntax errors for src, nil when esbuild
// accepts it.
func esbuildErrors(src []byte) []SyntaxError {
	res := api.Transform(string(src), api.TransformOptions{
		Loader: api.LoaderJS, Target: api.ESNext, LogLevel: api.LogLevelSilent,
		MinifyWhitespace: true, // output unused; indenting it is quadratic in depth
	})
	var out []SyntaxError
	lines := text.NewIndex(src)
	for _, e := range res.Errors {
		off := 0
		if l := e.Location; l != nil && l.Line >= 1 && l.Line <= lines.Lines() {
			off = lines.OffsetUTF8(l.Line-1, l.Column)
		}
		out = append(out, SyntaxError{Offset: off, Message: e.Text})
	}
	return out
}

type reader struct {
	jsfront.NoHooks
	src  []byte
	p    *prepared
	m    *Module
	prog *jsfront.Program
	body []ast.Statement
	// model is jsfront's scope model and evaluator over the module; top
	// is its top-level scope.
	model *jsfront.Model
	top   *jsfront.Scope
	// imports maps each imported local name to what it imports, from to
	// the module specifier.
	imports map[string]ImportName
	from    map[string]string
	// shadowedAt holds the offsets of module/exports/require identifiers
	// that name a declared binding (a parameter of esbuild's __commonJS
	// wrapper, a local), not CommonJS.
	shadowedAt map[int]bool
	// funcs are the functions of the module with the scopes of their
	// bodies: a marker in a body the parser did not see (relaxed) is
	// shadowed when the function declares its name.
	funcs []funcScope
	// stmtAt indexes the top-level statements by start offset.
	stmtAt map[int]ast.Statement
	// taint is the search for writes to the tools (mutations.go); added
	// the entries top-level statements add to a map, by its local name;
	// relaxedBy the syntax that made function bodies unreadable.
	taint     *taint
	added     map[string][]prop
	relaxedBy string
}

// namespace reports whether name is an `import * as name`, and from
// where.
func (r *reader) namespace(name string) (string, bool) {
	imp, ok := r.imports[name]
	return r.from[name], ok && imp.Imported == "*"
}

func (r *reader) off(idx file.Idx) int { return r.prog.Offset(idx) }

// ident makes the identifier name at offset off (an exported name read
// as an expression).
func (r *reader) ident(name string, off int) *ast.Identifier {
	return &ast.Identifier{Name: unistring.NewFromString(name), Idx: r.prog.Idx(off)}
}

func (r *reader) span(n ast.Node) Span { return Span{Start: r.off(n.Idx0()), End: r.off(n.Idx1())} }

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

// declare builds jsfront's model of the module: its imports, then every
// binding and what is assigned to it.
func (r *reader) declare() {
	for _, imp := range r.p.imports {
		for _, n := range imp.Names {
			r.imports[n.Local], r.from[n.Local] = n, imp.From
		}
	}
	r.taint = newTaint(r)
	r.model = jsfront.NewModel(r, r)
	r.top = r.model.Declare(r.body)
	r.model.Walk(r.body, r.top)
	r.model.Resolve(nil)
}

// Expr is jsfront.Visitor's: the search for writes sees every
// expression.
func (r *reader) Expr(e ast.Expression, sc *jsfront.Scope) { r.taint.expr(e, sc) }

// Stmt is jsfront.Visitor's.
func (r *reader) Stmt(s ast.Statement, sc *jsfront.Scope) { r.taint.stmt(s, sc) }

// Binding is jsfront.Hooks': a declaration's initializer.
func (r *reader) Binding(b *ast.Binding, sc *jsfront.Scope) { r.taint.binding(b, sc) }

// Start is jsfront.Source's: a node's offset in the module.
func (r *reader) Start(n ast.Node) int { return r.off(n.Idx0()) }

// Text is jsfront.Source's: a node's text, for reasons.
func (r *reader) Text(n ast.Node) string { return r.text(n) }

// Ident notes a CommonJS name that is a declared binding where it is read.
func (r *reader) Ident(id *ast.Identifier, sc *jsfront.Scope) {
	switch n := id.Name.String(); n {
	case "module", "exports", "require":
		if sc.Lookup(n) != nil {
			r.shadowedAt[r.off(id.Idx0())] = true
		}
	}
}

type funcScope struct {
	span Span
	sc   *jsfront.Scope
}

// Func records a function's body scope.
func (r *reader) Func(f ast.Expression, body *jsfront.Scope) {
	r.funcs = append(r.funcs, funcScope{r.span(f), body})
}

// shadowed reports whether a function enclosing off declares name.
func (r *reader) shadowed(off int, name string) bool {
	if r.shadowedAt[off] {
		return true
	}
	for _, f := range r.funcs {
		if f.span.Start <= off && off < f.span.End && f.sc.Lookup(name) != nil {
			return true
		}
	}
	return false
}

// Call notes a call of a require that is a declared binding.
func (r *reader) Call(c *ast.CallExpression, sc *jsfront.Scope) {
	if id, ok := c.Callee.(*ast.Identifier); ok {
		r.Ident(id, sc)
	}
}

// binding is the top-level binding of name that is not imported, nil
// when none.
func (r *reader) binding(name string) *jsfront.Binding {
	if r.top == nil {
		return nil
	}
	return r.top.Own(name)
}

// initOf is the initializer of a top-level name, nil when it has none
// (imported, a pattern, a function or class).
func (r *reader) initOf(name string) ast.Expression {
	if b := r.binding(name); b != nil && !b.Destructured() {
		return b.Init()
	}
	return nil
}

// cjs keeps the CommonJS markers whose name is not a top-level binding
// (`const require = createRequire(import.meta.url)` is ESM).
func (r *reader) cjs() {
	for _, mk := range r.p.cjs {
		name := mk.Text
		if i := strings.IndexAny(name, ".["); i >= 0 {
			name = name[:i]
		}
		if _, imported := r.imports[name]; imported || r.binding(name) != nil || r.shadowed(mk.Span.Start, name) {
			continue
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
		for _, n := range jsfront.PatternNames(b.Target) {
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
			id := r.ident(ex.Local, ex.Span.Start)
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
		expr = r.ident(local, ex.Span.Start)
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
			if _, imported := r.imports[x.Name.String()]; !imported {
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
			if add := obj.additions(es.Expression, local); len(add) > 0 {
				props = append(props, add...)
				r.taint.additions[es.Expression] = true
				r.added[local] = append(r.added[local], add...)
			}
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
			init := o.r.initOf(x.Name.String())
			if init == nil {
				return e
			}
			e = init
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
		init := o.r.initOf(name)
		if init == nil {
			break
		}
		x = init
	}
	e = o.resolve(e, depth)
	switch x := e.(type) {
	case *ast.ObjectLiteral:
		lit = x
	case *ast.Identifier:
		name := x.Name.String()
		imp, imported := o.r.imports[name]
		switch {
		case imported:
			o.unknowable(orig, "`%s` is imported from %q", x.Name, o.r.from[name])
			o.unknown[len(o.unknown)-1].From, o.unknown[len(o.unknown)-1].Name = o.r.from[name], imp.Imported
		case o.r.binding(name) == nil:
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
			if from, ok := o.r.namespace(id.Name.String()); ok {
				u := &o.unknown[len(o.unknown)-1]
				u.Reason = fmt.Sprintf("`%s` is imported from %q", o.r.text(orig), from)
				u.From, u.Name = from, x.Identifier.Name.String()
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
		return jsfront.PropKey(k)
	}
	return o.constString(k, 0)
}

// constString is the one string e holds, worked out by jsfront's
// evaluator over the module (constants, templates, + and the rest).
func (o *objReader) constString(e ast.Expression, _ int) (string, bool) {
	if e == nil || o.r.model == nil {
		return "", false
	}
	return o.r.model.String(e, o.r.top)
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
		if imp, ok := r.imports[v.Name.String()]; ok && imp.Imported != "*" {
			t.ValueFrom, t.ValueName = r.from[imp.Local], imp.Imported
		}
		return t
	case *ast.DotExpression: // ns.member of import * as ns
		if id, ok := v.Left.(*ast.Identifier); ok {
			if from, ok := r.namespace(id.Name.String()); ok {
				t.ValueFrom, t.ValueName = from, v.Identifier.Name.String()
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
			t.DescriptionText, _ = o.constString(p.value, 0)
			t.DescriptionSpan = r.span(p.value)
		case "inputJsonSchema":
			t.InputSchema = true
			t.InputSchemaValue, t.InputSchemaStatic = r.schemaValue(p.value)
			if !t.InputSchemaStatic {
				t.InputSchemaValue = nil
			}
			t.InputSchemaSpan = r.span(p.value)
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
