package jsfront

import (
	"strings"
	"testing"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/unistring"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// src places nodes by their offset in the module text.
type src struct{ p *Program }

func (s src) Start(n ast.Node) int { return s.p.Offset(n.Idx0()) }
func (s src) Text(n ast.Node) string {
	return s.p.Src[s.p.Offset(n.Idx0()):s.p.Offset(n.Idx1())]
}

// lastInit is the initializer of the last top-level declaration.
func lastInit(t *testing.T, p *Program) ast.Expression {
	t.Helper()
	switch st := p.Body[len(p.Body)-1].(type) {
	case *ast.LexicalDeclaration:
		return st.List[0].Initializer
	case *ast.VariableStatement:
		return st.List[0].Initializer
	}
	t.Fatalf("last statement is %T", p.Body[len(p.Body)-1])
	return nil
}

func model(t *testing.T, text string) (*Program, *Model, *Scope) {
	t.Helper()
	p, err := Parse(text, jslex.Options{DefaultVar: "var $default ="})
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	m := NewModel(src{p}, nil)
	sc := m.Declare(p.Body)
	m.Walk(p.Body, sc)
	m.Resolve(nil)
	return p, m, sc
}

func TestValuesThroughTheModule(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"import x from \"y\";\nconst A = \"https://a.x.com\";\nexport const u = `${A}/v1`;", "exact https://a.x.com/v1"},
		{"const K = 1e3;\nconst u = \"n\" + K;", "exact n1000"},
		{"const K = 0x10;\nconst u = `${K}`;", "exact 16"},
		{"let b = \"https://a.x.com\";\nif (Math.random()) b = \"https://b.x.com\";\nconst u = b;", "exact https://a.x.com|exact https://b.x.com"},
		{"const cfg = Object.freeze({ base: \"https://c.x.com\" });\nconst { base } = cfg;\nconst u = base + \"/q\";", "exact https://c.x.com/q"},
		{"function api(p) { return \"https://d.x.com\" + p; }\napi(\"/a\");\nconst u = api(\"/b\");", "exact https://d.x.com/a|exact https://d.x.com/b"},
		{"export default async function (input) { return input.q; }\nconst u = imported;", "unknown `imported` is not defined in the page or the files it imports"},
	} {
		p, m, sc := model(t, c.text)
		var got []string
		for _, v := range m.Values(lastInit(t, p), sc) {
			s := v.Kind.String() + " " + v.S
			if v.Kind == Unknown {
				s = "unknown " + v.Reason
			}
			got = append(got, s)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%q:\ngot  %s\nwant %s", c.text, strings.Join(got, "|"), c.want)
		}
	}
}

// The literal a value starts with is placed in the module text, past the
// lexer's rewrite and the wrapper.
func TestOffsets(t *testing.T) {
	text := "export default {};\nexport const u = \"https://a.x.com/\";"
	p, m, sc := model(t, text)
	v := m.Eval(lastInit(t, p), sc)
	if v.Kind != Exact || v.Lit != strings.Index(text, "\"https") {
		t.Fatalf("got %+v, want the literal at %d", v, strings.Index(text, "\"https"))
	}
	if p.Offset(p.Idx(7)) != 7 {
		t.Error("Idx is not Offset's inverse")
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		text string
		at   int
	}{
		{"const a = ;", 10},
		{"}); (function(){", 0}, // closes the wrapper: never a silent misparse
		{"const a = 1;\nfoo(;", 17},
	} {
		p, err := Parse(c.text, jslex.Options{})
		if err == nil || p.Body != nil {
			t.Errorf("%q: no error", c.text)
			continue
		}
		if c.at >= 0 && err.Offset != c.at && c.at != 0 {
			t.Errorf("%q: error at %d (%s), want %d", c.text, err.Offset, err.Message, c.at)
		}
		if err.Offset < 0 || err.Offset > len(c.text) {
			t.Errorf("%q: offset %d outside the text", c.text, err.Offset)
		}
	}
}

func TestPatternNames(t *testing.T) {
	p, _, _ := model(t, "const { a, b: { c = 1 }, ...d } = x, [e, , f = 2] = y;")
	var got []string
	for _, b := range p.Body[0].(*ast.LexicalDeclaration).List {
		got = append(got, PatternNames(b.Target)...)
	}
	if strings.Join(got, ",") != "a,c,d,e,f" {
		t.Errorf("got %v", got)
	}
}

// funcScopes records the body scope of every function with a block body.
type funcScopes struct {
	NoHooks
	scopes []*Scope
}

func (f *funcScopes) Func(_ ast.Expression, body *Scope) { f.scopes = append(f.scopes, body) }

// `arguments` and a function expression's own name are bindings of the
// function's scope, made when first looked up: parameters and local
// declarations of the same name shadow them, an arrow function has
// neither of its own, and the scope outside sees neither.
func TestImplicitNames(t *testing.T) {
	text := `function f(a) { return arguments; }
const g = function me(n) { return me(n - 1); };
function h(h, arguments) { return [h, arguments]; }
function k() { const me = 1; return () => { return arguments; }; }
const m = function m() { var m = 2; return m; };`
	p, err := Parse(text, jslex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hooks := &funcScopes{}
	m := NewModel(src{p}, hooks)
	top := m.Declare(p.Body)
	m.Walk(p.Body, top)
	m.Resolve(nil)
	if len(hooks.scopes) != 6 {
		t.Fatalf("%d function scopes, want 6", len(hooks.scopes))
	}
	f, g, h, k, arrow, mm := hooks.scopes[0], hooks.scopes[1], hooks.scopes[2], hooks.scopes[3], hooks.scopes[4], hooks.scopes[5]
	if b := f.Lookup("arguments"); b == nil || b.Kind() != DeclParam || b.Scope() != f || b.Ident() != nil {
		t.Errorf("arguments in f: %+v", b)
	}
	if f.Lookup("arguments") != f.Lookup("arguments") {
		t.Error("arguments is made again on every lookup")
	}
	if b := top.Lookup("arguments"); b != nil {
		t.Errorf("arguments at the top level: %+v", b)
	}
	if b := g.Lookup("me"); b == nil || b.Kind() != DeclFunc || b.Func() == nil || b.Func().Name.Name.String() != "me" || b.Node() == nil {
		t.Errorf("me in g: %+v", b)
	}
	if b := top.Lookup("me"); b != nil {
		t.Errorf("me outside its function: %+v", b)
	}
	for _, name := range []string{"h", "arguments"} {
		if b := h.Lookup(name); b == nil || b.Kind() != DeclParam || b.Ident() == nil {
			t.Errorf("%s in h is not the parameter: %+v", name, b)
		}
	}
	if b := h.Lookup("h"); b == top.Lookup("h") {
		t.Error("h in h is the outer declaration")
	}
	if b := arrow.Lookup("arguments"); b == nil || b.Scope() != k {
		t.Errorf("arguments in an arrow is not its function's: %+v", b)
	}
	if b := mm.Lookup("m"); b == nil || b.Kind() != DeclVar {
		t.Errorf("m in m is not the var: %+v", b)
	}
	if got := strings.Join(PatternNames(p.Body[0].(*ast.FunctionDeclaration).Function.ParameterList.List[0].Target), ","); got != "a" {
		t.Errorf("PatternNames = %q", got)
	}
}

// A scope keeps the order names were first declared in, past the size
// where it indexes them; a name declared again keeps its place.
func TestScopeOrder(t *testing.T) {
	sc := newScope(nil)
	var want []string
	for i := range 20 {
		name := string(rune('a' + i))
		want = append(want, name)
		sc.declare(name, &Binding{id: &ast.Identifier{Name: unistring.String(name)}})
		if i == 3 || i == 15 {
			again := &Binding{id: &ast.Identifier{Name: unistring.String("b")}}
			sc.declare("b", again)
			if sc.Own("b") != again {
				t.Fatalf("after %d names, b is not the last declaration", i+1)
			}
		}
	}
	var got []string
	for _, b := range sc.binds {
		got = append(got, b.name())
	}
	if strings.Join(got, "") != strings.Join(want, "") {
		t.Errorf("order %v, want %v", got, want)
	}
	for _, name := range want {
		if sc.Own(name) == nil || sc.Own(name).name() != name {
			t.Errorf("Own(%q) = %v", name, sc.Own(name))
		}
	}
	if sc.Own("zz") != nil {
		t.Error("an undeclared name is found")
	}
}
