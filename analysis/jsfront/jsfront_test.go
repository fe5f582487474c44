package jsfront

import (
	"strings"
	"testing"

	"github.com/dop251/goja/ast"
	"github.com/plugin-lsp/plugin-lsp/analysis/jslex"
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
