package jslex

import (
	"fmt"
	"strings"
	"testing"
)

func sp(n int) string { return strings.Repeat(" ", n) }

func stmts(src string, p *Prepared) string {
	var out []string
	name := [...]string{Import: "import", ExportList: "list", ExportAll: "all", ExportDefault: "default", ExportDecl: "decl"}
	for _, s := range p.Stmts {
		d := fmt.Sprintf("%s %q", name[s.Kind], src[s.Start:s.End])
		if s.From >= 0 {
			d += " from=" + p.Toks[s.From].Text(src)
		}
		if s.Name >= 0 {
			d += " name=" + p.Toks[s.Name].Text(src)
		}
		out = append(out, d)
	}
	return strings.Join(out, "\n")
}

func TestPrepare(t *testing.T) {
	esm := Options{DefaultVar: "var $default =", KeepNamedDefault: true, DynamicImport: true}
	page := Options{DefaultVar: "var __def__ = "}
	cases := []struct {
		src   string
		opt   Options
		code  string
		stmts string
	}{
		{
			"import a, { b as c, \"d\" as e } from \"x\" with { type: \"json\" };\nimport \"side\";\nimport * as ns from 'y'\nf();",
			esm,
			sp(62) + "\n" + sp(14) + "\n" + sp(23) + "\nf();",
			"import \"import a, { b as c, \\\"d\\\" as e } from \\\"x\\\" with { type: \\\"json\\\" };\" from=\"x\"\n" +
				"import \"import \\\"side\\\";\" from=\"side\"\nimport \"import * as ns from 'y'\" from='y'",
		},
		{
			"export { a as default, b };\nexport * as n from \"m\";\nexport * from \"k\";\nexport const x = 1;",
			esm,
			"                           \n                       \n                  \n       const x = 1;",
			"list \"export { a as default, b };\"\nall \"export * as n from \\\"m\\\";\" from=\"m\"\nall \"export * from \\\"k\\\";\" from=\"k\"\ndecl \"export\"",
		},
		{"export default {};", esm, "var $default = {};", "default \"export default\""},
		{"export default async function f() {}", esm, "               async function f() {}", "default \"export default\" name=f"},
		{"export default async function f() {}", page, "var __def__ =  async function f() {}", "default \"export default\" name=f"},
		{"export /* c */ default class extends B {}", esm, "var $default =" + sp(8) + " class extends B {}", "default \"export /* c */ default\""},
		{"const u = import.meta.url, m = import(\"x\");", esm, "const u = _mport.meta.url, m = _mport(\"x\");", ""},
		{"const u = import.meta.url, m = import(\"x\");", page, "const u = _mport.meta.url, m = import(\"x\");", ""},
		// not statements: nested, after a dot, inside a template
		{"{ import x from 'y' } o.export; `${ export }`", esm, "{ import x from 'y' } o.export; `${ export }`", ""},
		{"#!/usr/bin/env node\r\nexport {};", esm, "                   \r\n          ", "list \"export {};\""},
	}
	for _, c := range cases {
		p := Prepare(c.src, c.opt)
		if string(p.Code) != c.code {
			t.Errorf("%q: code\n%q\nwant\n%q", c.src, p.Code, c.code)
		}
		if got := stmts(c.src, p); got != c.stmts {
			t.Errorf("%q: statements\n%s\nwant\n%s", c.src, got, c.stmts)
		}
	}
	if p := Prepare("const u = import.meta.url;", esm); !p.ImportMeta || p.DefaultAt != -1 {
		t.Errorf("ImportMeta %v DefaultAt %d", p.ImportMeta, p.DefaultAt)
	}
	if p := Prepare("x;\nexport default 1", esm); p.DefaultAt != 3 {
		t.Errorf("DefaultAt %d", p.DefaultAt)
	}
}
