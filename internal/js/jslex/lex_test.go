package jslex

import (
	"fmt"
	"strings"
	"testing"
)

var kindName = [...]string{EOF: "eof", Ident: "id", Punct: "p", String: "str", Number: "num",
	Regex: "re", Template: "tpl", TemplateHead: "head", Private: "priv"}

// dump renders every token as kind:text, with the depth after a '/' when
// it is not 0 and a '¶' before a token that follows a line break.
func dump(src string) string {
	var out []string
	for _, t := range Lex(src) {
		s := kindName[t.Kind] + ":" + t.Text(src)
		if t.Depth != 0 {
			s += fmt.Sprintf("/%d", t.Depth)
		}
		if t.NL {
			s = "¶" + s
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestLex(t *testing.T) {
	cases := []struct{ src, want string }{
		// strings, escapes, unterminated strings end before the line break
		{`a = "x\"y" + 'it\'s'`, `id:a p:= str:"x\"y" p:+ str:'it\'s'`},
		{"s = \"open\nnext", `id:s p:= str:"open ¶id:next`},
		{"s = 'a\\\nb'", "id:s p:= str:'a\\\nb'"},
		// templates: head, substitutions at depth+1, middle and tail
		{"`a${b}c${d}e`", "head:`a${ id:b/1 head:}c${ id:d/1 tpl:}e`"},
		{"`x${ {a: `y${1}`}.a } z`", "head:`x${ p:{/1 id:a/2 p::/2 head:`y${/2 num:1/3 tpl:}`/2 p:}/1 p:./1 id:a/1 tpl:} z`"},
		{"`no subst` + 1", "tpl:`no subst` p:+ num:1"},
		{"`unterminated ${a", "head:`unterminated ${ id:a/1"},
		{"f(`${x}`)", "id:f p:( head:`${/1 id:x/2 tpl:}`/1 p:)"},
		// comments, with line breaks inside them
		{"a // c /re/\nb /* x\ny */ c /* z */ d", "id:a ¶id:b ¶id:c id:d"},
		{"a /* unterminated", "id:a"},
		// regex or division
		{"x = a / b / c", "id:x p:= id:a p:/ id:b p:/ id:c"},
		{"x = /a[/]b\\/c/gi.test(s)", "id:x p:= re:/a[/]b\\/c/gi p:. id:test p:( id:s/1 p:)"},
		{"return /re/; (a) / 2; a[0] / 2", "id:return re:/re/ p:; p:( id:a/1 p:) p:/ num:2 p:; id:a p:[ num:0/1 p:] p:/ num:2"},
		{"x++ / 2; y = +/re/", "id:x p:++ p:/ num:2 p:; id:y p:= p:+ re:/re/"},
		{"typeof /re/; export default /re/; class A extends /re/ {}", "id:typeof re:/re/ p:; id:export id:default re:/re/ p:; id:class id:A id:extends re:/re/ p:{ p:}"},
		{"}\n/re/", "p:} ¶re:/re/"},
		{"x = /open\ny", "id:x p:= re:/open ¶id:y"},
		{"`${a}` / 2; `${/re/}`", "head:`${ id:a/1 tpl:}` p:/ num:2 p:; head:`${ re:/re//1 tpl:}`"},
		// numbers
		{"1.5e+3 + 0x1E+2 - .5 - 1_000n", "num:1.5e+3 p:+ num:0x1E p:+ num:2 p:- num:.5 p:- num:1_000n"},
		// identifiers: non-ASCII, escapes, private names
		{"é = ünï + \\u0061b + a\\u{62}c", "id:é p:= id:ünï p:+ id:\\u0061b p:+ id:a\\u{62}c"},
		{"a\u00a0b\u2003c", "id:a id:b id:c"},
		{"a\u2028b", "id:a ¶id:b"},
		{"class A { #x = 1; m() { return this.#x; } }", "id:class id:A p:{ priv:#x/1 p:=/1 num:1/1 p:;/1 id:m/1 p:(/1 p:)/1 p:{/1 id:return/2 id:this/2 p:./2 priv:#x/2 p:;/2 p:}/1 p:}"},
		// punctuators
		{"a?.b ?? c ? .5 : {...d}", "id:a p:?. id:b p:? p:? id:c p:? num:.5 p:: p:{ p:.../1 id:d/1 p:}"},
		// brackets: a closing bracket has its opening one's depth; extra
		// closers do not go below 0
		{"f(a[1], {b}) ) }", "id:f p:( id:a/1 p:[/1 num:1/2 p:]/1 p:,/1 p:{/1 id:b/2 p:}/1 p:) p:) p:}"},
		// a BOM and a hashbang line open a module
		{"\uFEFF#!/usr/bin/env node\nx", "¶id:x"},
		{"#!/bin/sh", ""},
	}
	for _, c := range cases {
		if got := dump(c.src); got != c.want {
			t.Errorf("%q:\ngot  %s\nwant %s", c.src, got, c.want)
		}
	}
}

// TestLexerTraps: no keyword inside a comment, string, template or
// regular expression is an import or export statement.
func TestLexerTraps(t *testing.T) {
	src := "\uFEFF#!/usr/bin/env node\n// export const tools = {}\n/* export default {} */\n" +
		"const re = /export default {/g, div = 4 / 2 / 1;\n" +
		"const s = 'export const x = 1', d = \"import x from 'y'\";\n" +
		"const tpl = `export ${ { a: `import ${1}` }.a } default`;\n" +
		"const lazy = () => import(\"./lazy.js\");\nconst url = import.meta.url;\n" +
		"const o = { export: 1, import: 2 }; o.export; o.import;\n" +
		"export const tools = { \"é.ü\": { description: \"ünïcode\" }, after: {} };\n"
	var words []string
	for _, tk := range Lex(src) {
		if tk.Kind == Ident && (tk.Is(src, "import") || tk.Is(src, "export")) {
			words = append(words, fmt.Sprintf("%s@%d/%d", tk.Text(src), tk.Start, tk.Depth))
		}
	}
	want := fmt.Sprintf("import@%d/0 import@%d/0 export@%d/1 import@%d/1 export@%d/0 import@%d/0 export@%d/0",
		strings.Index(src, "import(\""), strings.Index(src, "import.meta"), strings.Index(src, "export: 1"),
		strings.Index(src, "import: 2"), strings.Index(src, "export;"), strings.Index(src, "import;"),
		strings.LastIndex(src, "export const"))
	if got := strings.Join(words, " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p := Prepare(src, Options{DefaultVar: "var $default =", DynamicImport: true})
	if len(p.Stmts) != 1 || p.Stmts[0].Kind != ExportDecl || !p.ImportMeta {
		t.Errorf("statements %+v, import.meta %v", p.Stmts, p.ImportMeta)
	}
}

func TestScanFrom(t *testing.T) {
	src := "if (a) f(`x${g(1, 2)}`, [3]) + y; z"
	s := ScanFrom(src, strings.Index(src, "f("))
	var got []string
	for tk := s.Next(); tk.Kind != EOF; tk = s.Next() {
		got = append(got, tk.Text(src))
		if tk.Is(src, "(") {
			got = append(got, src[tk.End:s.SkipBalanced(tk)])
		}
	}
	want := "f|(|`x${g(1, 2)}`, [3])|+|y|;|z"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("got %s, want %s", g, want)
	}
	for _, c := range []struct {
		at   string
		want string
	}{
		{"`x", "`x${g(1, 2)}`"}, {"g(", "g"}, {"[3]", "["}, {"if", "if"}, {" (a)", "("},
	} {
		i := strings.Index(src, c.at)
		if got := src[i:TokenEnd(src, i)]; strings.TrimSpace(got) != c.want {
			t.Errorf("TokenEnd at %q = %q, want %q", c.at, got, c.want)
		}
	}
	if TokenEnd(src, -1) != -1 || TokenEnd(src, len(src)) != len(src) {
		t.Error("TokenEnd out of range")
	}
	if got := SkipSpace("  /* a */ // b\n\t x", 0); got != 17 {
		t.Errorf("SkipSpace = %d", got)
	}
	if b := ScanFrom(src, 0); b.SkipBalanced(Token{}) != len(src) {
		t.Error("SkipBalanced without a closer must reach the end")
	}
}

func TestBracket(t *testing.T) {
	src := "( [ { ) ] } `a${ }b${ }c` `d` x"
	var got []int
	for _, tk := range Lex(src) {
		got = append(got, Bracket(src, tk))
	}
	if fmt.Sprint(got) != "[1 1 1 -1 -1 -1 1 0 -1 0 0]" {
		t.Errorf("Bracket: %v", got)
	}
}

func FuzzLex(f *testing.F) {
	for _, s := range []string{"`a${`b${c}`}`", "/re/g / 2", "a\\u{61}", "#!x\n#y", "'\\", "x = /[/", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prev := int32(0)
		for _, tk := range Lex(src) {
			if tk.Start < prev || tk.End <= tk.Start || int(tk.End) > len(src) || tk.Depth < 0 {
				t.Fatalf("bad token %+v after %d in %q", tk, prev, src)
			}
			prev = tk.End
		}
		p := Prepare(src, Options{DefaultVar: "var $default ="})
		if len(p.Code) != len(src) {
			t.Fatalf("code length %d, want %d", len(p.Code), len(src))
		}
		for i := range src {
			if (src[i] == '\n') != (p.Code[i] == '\n') {
				t.Fatalf("line break moved at %d", i)
			}
		}
		if e := TokenEnd(src, 0); e < 0 || e > len(src) {
			t.Fatalf("TokenEnd = %d", e)
		}
	})
}

// TestDeepBrackets: past 64 open brackets the scanner still tells a
// template's "${" from a brace.
func TestDeepBrackets(t *testing.T) {
	for _, n := range []int{63, 64, 65, 200} {
		src := strings.Repeat("`${{(", n) + "x" + strings.Repeat(")}}`", n) + " / 2"
		toks := Lex(src)
		last := toks[len(toks)-3]
		if last.Kind != Template || last.Depth != 0 || !toks[len(toks)-2].Is(src, "/") || toks[len(toks)-2].Kind != Punct {
			t.Errorf("n=%d: ends with %+v %+v", n, last, toks[len(toks)-2])
		}
		x := toks[3*n]
		if !x.Is(src, "x") || x.Depth != int32(3*n) {
			t.Errorf("n=%d: x is %+v", n, x)
		}
	}
}
