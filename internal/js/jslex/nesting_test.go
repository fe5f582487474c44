package jslex

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nestShapes are constructs that nest without bound: head×n mid tail×n.
var nestShapes = []struct{ name, head, mid, tail string }{
	{"arrays", "[", "0", "]"},
	{"objects", "({a:", "0", "})"},
	{"parens", "(", "0", ")"},
	{"blocks", "{", "", "}"},
	{"templates", "`${", "0", "}`"},
	{"not", "!", "x", ""},
	{"minus", "- ", "x", ""},
	{"preinc", "++", "x", ""},
	{"typeof", "typeof ", "x", ""},
	{"new", "new ", "X", ""},
	{"await", "await ", "x", ""},
	{"ternary", "a?a:", "a", ""},
	{"ternary-nl", "a\n?a\n:", "a", ""},
	{"ternary-gt-nl", "a?a:a>\n", "a", ""},
	{"assign", "x=", "1", ""},
	{"compound", "x+=", "1", ""},
	{"arrows", "x=>", "x", ""},
	{"if", "if(a)", ";", ""},
	{"if-nl", "if(a)\n", ";", ""},
	{"elseif", "if(a){}else ", "{}", ""},
	{"for", "for(;;)", ";", ""},
	{"while-nl", "while(a)\n", ";", ""},
	{"do", "do ", ";", "while(a)"},
	{"labels", "a:", ";", ""},
	{"labels-nl", "a:\n", ";", ""},
	{"generics", "let g: A<", "B", ">"},
	{"keyof", "type K = ", "", ""},
	{"obj-ternary", "a?{}:", "a", ""},
	{"concat", "\"a\"+", "\"a\"", ""},
	{"member", "a.", "a", ""},
	{"optional", "a?.", "a", ""},
	{"callchain", "f", "", "()"},
	{"indexchain", "a", "", "[0]"},
	{"power", "a**", "a", ""},
	{"and", "a&&", "a", ""},
	{"as", "a", "", " as A"},
}

func TestCheckNestingShapes(t *testing.T) {
	for _, s := range nestShapes {
		deep := strings.Repeat(s.head, MaxNesting+1) + s.mid + strings.Repeat(s.tail, MaxNesting+1)
		if s.name == "keyof" {
			deep = "type K = " + strings.Repeat("keyof ", MaxNesting+1) + "T"
		}
		e := CheckNesting(deep, MaxNesting)
		if e == nil {
			t.Errorf("%s: %d levels not refused", s.name, MaxNesting+1)
			continue
		}
		if e.Offset <= 0 || e.Offset >= len(deep) {
			t.Errorf("%s: offset %d", s.name, e.Offset)
		}
		shallow := strings.Repeat(s.head, 100) + s.mid + strings.Repeat(s.tail, 100)
		if e := CheckNesting(shallow, MaxNesting); e != nil {
			t.Errorf("%s: 100 levels refused: %v", s.name, e)
		}
	}
}

// Long flat code (many statements, list elements, cases, members written
// without semicolons) is not nesting.
func TestCheckNestingFlat(t *testing.T) {
	flat := map[string]string{
		"statements":     "x = a ? b : c;\n",
		"asi":            "x = a ? b : -c\n",
		"asi-calls":      "const v = f(a)\n",
		"ifs":            "if (a) b = 1\n",
		"ifs-blocks":     "if (a) { b = 1 } else if (c) { d() }\n",
		"functions":      "function f(a: number): Promise<number> { return g(a) }\n",
		"cases":          "case 1: case 2: x = 1\n",
		"object":         "a: 1, b: -2,\n",
		"class":          "a = 1\n b: string = 'x'\n",
		"interface":      "a: string\n",
		"member-stmts":   "a.b.c.d(e[0]).f = g + h * 2\n",
		"arrow-consts":   "const f = (x) => x\n",
		"exported-types": "export type A = { a: string }\n",
	}
	for name, unit := range flat {
		src := strings.Repeat(unit, 5000)
		switch name {
		case "cases":
			src = "switch (x) {" + src + "}"
		case "object":
			src = "const o = {" + src + "}"
		case "class", "interface":
			src = "class A {" + src + "}"
		}
		if e := CheckNesting(src, MaxNesting); e != nil {
			t.Errorf("%s: refused at %d (%q): %v", name, e.Offset, src[max(0, e.Offset-40):e.Offset+10], e)
		}
	}
}

// Real code passes both checks: the repository's pages and modules and the JavaScript
// of the esbuild module (test scripts of up to 300 KB).
func TestCheckNestingRealCode(t *testing.T) {
	var files []string
	for _, g := range []string{"../../../testdata/*/*/*/*.[tj]s", "../../../testdata/*/*/*.[tj]s", "../../runner/sandbox/*.js", "../../runner/testdata/*/*/*.[tj]s"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	es, _ := filepath.Glob(filepath.Join(build.Default.GOPATH, "pkg/mod/github.com/evanw/esbuild@*/scripts/*.js"))
	files = append(files, es...)
	if len(files) < 20 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if e := CheckCode(string(b)); e != nil {
			src := string(b)
			t.Errorf("%s: refused at %d: %q", f, e.Offset, src[max(0, e.Offset-80):min(len(src), e.Offset+20)])
		}
	}
	t.Logf("%d files", len(files))
}
