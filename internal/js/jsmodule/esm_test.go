package jsmodule

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// describe renders everything ReadExports found, one fact per line, with
// each span shown as the source text it covers (so the test checks the
// spans too).
func describe(src string, m *Module) string {
	at := func(s Span) string {
		if s.Start < 0 || s.End > len(src) || s.Start > s.End {
			return fmt.Sprintf("@<bad span %d-%d>", s.Start, s.End)
		}
		return "@" + src[s.Start:s.End]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "kind %s\n", m.Kind)
	for _, e := range m.Errors {
		fmt.Fprintf(&b, "error %d %s\n", e.Offset, e.Message)
	}
	if u := m.Unreadable; u != nil {
		fmt.Fprintf(&b, "unreadable %s %s\n", u.Reason, at(u.Span))
	}
	for _, c := range m.CommonJS {
		fmt.Fprintf(&b, "cjs %s %s\n", c.Text, at(c.Span))
	}
	for _, i := range m.Imports {
		fmt.Fprintf(&b, "import %q %v\n", i.From, i.Locals)
	}
	for _, e := range m.Exports {
		fmt.Fprintf(&b, "export %s %s", e.Name, at(e.Span))
		if e.Local != "" && e.Local != e.Name {
			fmt.Fprintf(&b, " local=%s", e.Local)
		}
		if e.From != "" {
			fmt.Fprintf(&b, " from=%s", e.From)
		}
		if e.Star {
			b.WriteString(" star")
		}
		b.WriteString("\n")
	}
	for _, g := range m.AlwaysGate {
		fmt.Fprintf(&b, "gate %s\n", at(g))
	}
	if tm := m.Tools; tm != nil {
		fmt.Fprintf(&b, "map %s %s\n", tm.Export, at(tm.ExportSpan))
		for _, t := range tm.Entries {
			fmt.Fprintf(&b, "  %q %s", t.Name, at(t.KeySpan))
			if t.Computed {
				b.WriteString(" computed")
			}
			if t.Def {
				b.WriteString(" def")
			}
			if t.Description {
				b.WriteString(" desc")
			}
			if t.InputSchema {
				b.WriteString(" schema")
			}
			if t.Execute {
				b.WriteString(" exec")
			}
			if len(t.Requires) > 0 || !t.RequiresKnown {
				var rs []string
				for _, r := range t.Requires {
					rs = append(rs, r.Value+at(r.Span))
				}
				fmt.Fprintf(&b, " requires=[%s]", strings.Join(rs, " "))
				if !t.RequiresKnown {
					b.WriteString("?")
				}
			}
			if a := t.NeedsApproval; a != nil {
				fmt.Fprintf(&b, " approval=%s", a.Kind)
				if a.Kind == "boolean" {
					fmt.Fprintf(&b, ":%v", a.Value)
				}
				for _, n := range a.Names {
					fmt.Fprintf(&b, " %s%s", n.Value, at(n.Span))
				}
			}
			if t.AlwaysGateSpan != nil {
				fmt.Fprintf(&b, " alwaysGate%s", at(*t.AlwaysGateSpan))
			}
			if t.ValueFrom != "" {
				fmt.Fprintf(&b, " value=%s#%s", t.ValueFrom, t.ValueName)
			}
			for _, u := range t.DefUnknowable {
				fmt.Fprintf(&b, " defunknown(%s %s)", u.Reason, at(u.Span))
			}
			b.WriteString("\n")
		}
		for _, u := range tm.Unknowable {
			fmt.Fprintf(&b, "  unknown %s %s", u.Reason, at(u.Span))
			if u.From != "" {
				fmt.Fprintf(&b, " follow=%s#%s", u.From, u.Name)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func check(t *testing.T, src, want string) {
	t.Helper()
	got := describe(src, ReadExports([]byte(src)))
	want = strings.TrimLeft(want, "\n")
	if got != want {
		t.Errorf("ReadExports(%q):\n--- got\n%s--- want\n%s", src, got, want)
	}
}

func TestBundledExample(t *testing.T) {
	src, err := os.ReadFile("../../../testdata/example/books/native/telegram.js")
	if err != nil {
		t.Fatal(err)
	}
	check(t, string(src), `
kind ESM
import "node:net" [net]
export tools @tools
map tools @tools
  "tg.sendMessage" @"tg.sendMessage" def desc schema exec requires=[secrets.read@"secrets.read" network.socket@"network.socket"]
  "tg.readChat" @"tg.readChat" def desc schema exec requires=[secrets.read@"secrets.read" network.socket@"network.socket"] approval=boolean:false
`)
	if cs := ReadExports(src).Changes("tools"); len(cs) > 0 {
		t.Errorf("the example's tools read as changed: %+v", cs)
	}
}

func TestExportStyles(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"export const", `export const tools = { a: { description: "x" } };`, `
kind ESM
export tools @tools
map tools @tools
  "a" @a def desc
`},
		{"export default object", `export default { "a.b": {}, 'c': {}, 3: {} };`, `
kind ESM
export default @default
map default @default
  "a.b" @"a.b" def
  "c" @'c' def
  "3" @3 def
`},
		{"export list", "const tools = { a: {} };\nexport { tools };", `
kind ESM
export tools @tools
map tools @tools
  "a" @a def
`},
		{"export as", "const t = { a: {} };\nexport { t as tools, t as other };", `
kind ESM
export tools @tools local=t
export other @other local=t
map tools @tools
  "a" @a def
`},
		{"export default identifier and freeze", "const tools = Object.freeze({ a: {} });\nexport default tools;", `
kind ESM
export default @default
map default @default
  "a" @a def
`},
		{"tools wins over default", "export const tools = { a: {} };\nexport default { b: {} };", `
kind ESM
export tools @tools
export default @default
map tools @tools
  "a" @a def
`},
		{"named default function", "export default function tools() {}", `
kind ESM
export default @default local=tools
map default @default
  unknown ` + "`tools` is not an object literal @default" + `
`},
		{"anonymous default function", "export default async function () {}", `
kind ESM
export default @default
map default @default
  unknown ` + "`async function () {}` is not an object literal @async function () {}" + `
`},
		{"re-export", `export { tools } from "./defs.js";`, `
kind ESM
export tools @tools from=./defs.js
map tools @tools
  unknown ` + "`tools` is re-exported from \"./defs.js\" @tools follow=./defs.js#tools" + `
`},
		{"star re-export", `export * from "./defs.js"; export * as more from "./more.js";`, `
kind ESM
export * @* from=./defs.js star
export more @more from=./more.js star
map tools @*
  unknown ` + "`export * from \"./defs.js\"` may provide `tools` @* follow=./defs.js#tools" + `
`},
		{"no tools export", "export const version = 2;\nexport function helper() {}\nexport class Client {}", `
kind ESM
export version @version
export helper @helper
export Client @Client
`},
		{"empty module", "", `
kind script
`},
		{"destructured export", "export const { a, b: c } = obj;", `
kind ESM
export a @{ a, b: c }
export c @{ a, b: c }
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { check(t, c.src, c.want) })
	}
}

func TestKeys(t *testing.T) {
	check(t, "const NS = \"tg.\";\nconst SEND = NS + \"send\";\nconst base = { \"tg.base\": {} };\n"+
		"export const tools = {\n  [SEND]: {},\n  [`${NS}read`]: {},\n  [\"tg.x\"]: {},\n  short,\n  ...base,\n  [dyn]: {},\n  [f()]: {},\n  ...other,\n  ...makeMore(),\n};\n"+
		"tools.added = {};\ntools[\"tg.\" + \"bracket\"] = {};\ntools[key] = {};\nObject.assign(tools, { assigned: {} });\n", `
kind ESM
export tools @tools
map tools @tools
  "tg.send" @SEND computed def
  "tg.read" @`+"`${NS}read`"+` computed def
  "tg.x" @"tg.x" computed def
  "short" @short
  "tg.base" @"tg.base" def
  "added" @added def
  "tg.bracket" @"tg." + "bracket" computed def
  "assigned" @assigned def
  unknown computed key `+"`dyn` @dyn"+`
  unknown computed key `+"`f()` @f()"+`
  unknown spread of `+"`other` @...other"+`
  unknown spread of `+"`makeMore()` @...makeMore()"+`
  unknown `+"`tools[key]` adds a name that is not constant @tools[key]"+`
`)
}

func TestVarConstants(t *testing.T) {
	// Bundlers emit var for const: a var never reassigned at the top level
	// is a constant; one that is reassigned holds, where it is read, the
	// value assigned last before the read in straight-line code (reaching
	// definitions); one a function reassigns is not known.
	check(t, "var NS = \"a.\";\nlet K = \"b\";\nvar L = \"c\";\nL = \"d\";\nexport const tools = { [NS + K]: {}, [L]: {} };", `
kind ESM
export tools @tools
map tools @tools
  "a.b" @NS + K computed def
  "d" @L computed def
`)
}

// Numbers become keys as JavaScript prints them, through the same
// evaluator pages use (internal/js/jsfront): 1e3 is "1000", 1e-7 "1e-7".
func TestNumericKeys(t *testing.T) {
	check(t, "const N = 1e-7;\nexport const tools = { 1e3: {}, [N]: {}, [`t${2e21}`]: {}, [0x10 + \"\"]: {} };", `
kind ESM
export tools @tools
map tools @tools
  "1000" @1e3 def
  "1e-7" @N computed def
  "t2e+21" @`+"`t${2e21}`"+` computed def
  "16" @0x10 + "" computed def
`)
}

func TestUnknowableMaps(t *testing.T) {
	check(t, "export default makeTools();", `
kind ESM
export default @default
map default @default
  unknown call of `+"`makeTools()` @makeTools()"+`
`)
	check(t, "import { tools } from \"./x.js\";\nexport { tools };", `
kind ESM
import "./x.js" [tools]
export tools @tools
map tools @tools
  unknown `+"`tools` is imported from \"./x.js\" @tools follow=./x.js#tools"+`
`)
	// A spread cycle stops instead of looping.
	check(t, "const a = { ...b, x: {} };\nconst b = { ...a };\nexport const tools = a;", `
kind ESM
export tools @tools
map tools @tools
  "x" @x def
`)
}

func TestFollowAndExportedMaps(t *testing.T) {
	src := "import def, { a as b, \"c d\" as e } from \"./m.js\";\nimport * as ns from \"./n.js\";\n" +
		"export const tools = { ...b, ...e, ...def, ...ns, ...ns.sub, ...local.sub, own: {} };\n" +
		"export const more = { x: {} };\nexport const version = 2;\nexport { b as again };\nexport { z as zz } from \"./z.js\";\nexport * from \"./star.js\";\nexport default def;\n"
	check(t, src, `
kind ESM
import "./m.js" [def b e]
import "./n.js" [ns]
export tools @tools
export more @more
export version @version
export again @again local=b
export zz @zz local=z from=./z.js
export * @* from=./star.js star
export default @default
map tools @tools
  "own" @own def
  unknown spread of `+"`b` @...b follow=./m.js#a"+`
  unknown spread of `+"`e` @...e follow=./m.js#c d"+`
  unknown spread of `+"`def` @...def follow=./m.js#default"+`
  unknown spread of `+"`ns` @...ns follow=./n.js#*"+`
  unknown spread of `+"`ns.sub` @...ns.sub follow=./n.js#sub"+`
  unknown spread of `+"`local.sub` @...local.sub"+`
`)
	m := ReadExports([]byte(src))
	var got []string
	for _, name := range []string{"tools", "more", "version", "again", "zz", "default", "other", "nothing"} {
		tm := m.ExportedMap(name)
		switch {
		case tm == nil:
			got = append(got, name+":nil")
		case len(tm.Unknowable) > 0:
			got = append(got, fmt.Sprintf("%s:%d entries, follow %s#%s", name, len(tm.Entries), tm.Unknowable[0].From, tm.Unknowable[0].Name))
		default:
			got = append(got, fmt.Sprintf("%s:%d entries", name, len(tm.Entries)))
		}
	}
	want := "tools:1 entries, follow ./m.js#a|more:1 entries|version:nil|again:0 entries, follow ./m.js#a|zz:0 entries, follow ./z.js#z|" +
		"default:0 entries, follow ./m.js#default|other:0 entries, follow ./star.js#other|nothing:0 entries, follow ./star.js#nothing"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("ExportedMap:\n got %s\nwant %s", g, want)
	}
}

func TestImportedDefinitions(t *testing.T) {
	check(t, "import { send as s } from \"./send.js\";\nimport * as defs from \"./defs.js\";\nimport pkg from \"pkg\";\n"+
		"export const tools = { \"a.send\": s, \"a.read\": defs.read, \"a.pkg\": pkg };", `
kind ESM
import "./send.js" [s]
import "./defs.js" [defs]
import "pkg" [pkg]
export tools @tools
map tools @tools
  "a.send" @"a.send" value=./send.js#send
  "a.read" @"a.read" value=./defs.js#read
  "a.pkg" @"a.pkg" value=pkg#default
`)
	m := ReadExports([]byte("export const send = { requires: [\"clock\"], alwaysGate: 1 };\nexport { x as y } from \"./z.js\";\n" +
		"export default { description: \"d\" };\nexport const n = 1;\nimport { w } from \"./w.js\";\nexport { w };"))
	var got []string
	for _, name := range []string{"send", "y", "default", "n", "w"} {
		d := m.Defs[name]
		switch {
		case d == nil:
			got = append(got, name+":-")
		case d.Def:
			got = append(got, fmt.Sprintf("%s:def requires=%d gate=%v", name, len(d.Requires), d.AlwaysGateSpan != nil))
		default:
			got = append(got, fmt.Sprintf("%s:%s#%s", name, d.ValueFrom, d.ValueName))
		}
	}
	want := "send:def requires=1 gate=true|y:./z.js#x|default:def requires=0 gate=false|n:-|w:./w.js#w"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("Defs:\n got %s\nwant %s", g, want)
	}
}

func TestDefinitions(t *testing.T) {
	check(t, `const CAPS = ["network.socket", "secrets.read"];
const common = { requires: CAPS, inputJsonSchema: {} };
export const tools = {
  a: { ...common, description: "d", execute() {} },
  b: { requires: ["clock", other], needsApproval: (args) => args.x },
  c: { needsApproval: { "web.fetch": false }, alwaysGate: true },
  d: { needsApproval: ["shell.exec"], requires: dyn },
  e: { needsApproval: "web.fetch", ...unknownBase },
  f: makeDef(),
  get g() { return {}; },
};`, `
kind ESM
export tools @tools
gate @alwaysGate
map tools @tools
  "a" @a def desc schema exec requires=[network.socket@"network.socket" secrets.read@"secrets.read"]
  "b" @b def requires=[clock@"clock"]? approval=function
  "c" @c def approval=object web.fetch@"web.fetch" alwaysGate@alwaysGate
  "d" @d def requires=[]? approval=array shell.exec@"shell.exec"
  "e" @e def approval=string web.fetch@"web.fetch" defunknown(spread of `+"`unknownBase` @...unknownBase)"+`
  "f" @f
  "g" @g
`)
}

func TestCommonJS(t *testing.T) {
	check(t, "const x = require(\"x\");\nmodule.exports = { tools: {} };\nexports.more = 1;\nexports[\"k\"] = 2;", `
kind CommonJS
cjs require @require
cjs module.exports @module.exports
cjs exports.more @exports.more
cjs exports[…] @exports[
`)
	// Not markers: property names, strings, comments, a local require.
	check(t, "import { createRequire } from \"node:module\";\nconst require = createRequire(import.meta.url);\n"+
		"const m = require(\"m\"); // module.exports = x\nconst s = \"module.exports\"; obj.module.exports = 1; x = { module: 1 };\nexport const tools = {};", `
kind ESM
import "node:module" [createRequire]
export tools @tools
map tools @tools
`)
	// ESM with CommonJS leftovers.
	check(t, "export const tools = {};\nmodule.exports = tools;", `
kind ESM
cjs module.exports @module.exports
export tools @tools
map tools @tools
`)
	// No module syntax at all.
	check(t, "function f() { return 1 }", "kind script\n")
	// esbuild's ESM bundles wrap CommonJS dependencies in functions whose
	// parameters are exports and module: valid ESM, no marker. A require
	// that no function declares is still one.
	check(t, `var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() {
  return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
};
var require_lib = __commonJS({
  "node_modules/lib/index.js"(exports, module) {
    exports.helper = function() { return 1; };
    module.exports.other = 2;
    const inner = () => { const require = (x) => x; return require("y"); };
  }
});
var lib = require_lib();
export const tools = { "a.b": { execute() { return require("z"); } } };`, `
kind ESM
cjs require @require
export tools @tools
map tools @tools
  "a.b" @"a.b" def exec
`)
}

func TestLexerTraps(t *testing.T) {
	src := "\uFEFF#!/usr/bin/env node\n// export const tools = {}\n/* export default {} */\n" +
		"const re = /export default {/g, div = 4 / 2 / 1;\n" +
		"const s = 'export const x = 1', d = \"import x from 'y'\";\n" +
		"const tpl = `export ${ { a: `import ${1}` }.a } default`;\n" +
		"const lazy = () => import(\"./lazy.js\");\nconst url = import.meta.url;\n" +
		"const o = { export: 1, import: 2 }; o.export; o.import;\n" +
		"export const tools = { \"é.ü\": { description: \"ünïcode\" }, after: {} };\n"
	check(t, src, `
kind ESM
export tools @tools
map tools @tools
  "é.ü" @"é.ü" def desc
  "after" @after def
`)
}

func TestModernSyntax(t *testing.T) {
	// goja's parser lacks these; ReadExports reads the structure without
	// the function bodies and esbuild confirms the module is valid.
	check(t, "await init();\nexport const tools = {\n  a: { async execute() { for await (const x of y) {} } },\n  b: { async *stream() { yield 1; } },\n  c: { async execute() { await using r = get(); } },\n};", `
kind ESM
export tools @tools
map tools @tools
  "a" @a def exec
  "b" @b def
  "c" @c def exec
`)
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"export const tools = { a: { execute(args: Args) {} } };", "kind ESM\nerror 40 Expected \")\" but found \":\"\n"},
		{"export const tools = {", "kind ESM\nerror 22 Expected identifier but found end of file\n"},
		// A stray "})" must not escape the wrapper.
		{"}); export const tools = {}; (function(){", "kind ESM\nerror 0 Unexpected \"}\"\n"},
		{"const s = \"unterminated\nexport default {}", "kind ESM\nerror 23 Unterminated string literal\nexport default @default\n"},
	}
	for _, c := range cases {
		check(t, c.src, c.want)
	}
}

func TestHostileInputs(t *testing.T) {
	inputs := []string{
		"export", "export default", "export {", "export * as", "import", "import {", "`${", "`${`${`${", "/", "/[",
		"export default {", "}}}}}}", "((((((", "export const", "export { a as }", "\\u0065xport const x = 1",
		strings.Repeat("{", 10000), strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		"export const tools = {" + strings.Repeat("...a,", 1000) + "}; const a = {...a};",
		"const a = b; const b = a; export default a;",
		"\xff\xfe export const tools = {}",
	}
	for _, in := range inputs {
		m := ReadExports([]byte(in))
		if m == nil {
			t.Fatalf("%q: nil module", in)
		}
		// Every span must lie inside the input.
		d := describe(in, m)
		if strings.Contains(d, "<bad span") {
			t.Errorf("%q: span outside the input:\n%s", in, d)
		}
	}
}

func TestBrokerCapabilities(t *testing.T) {
	caps := BrokerCapabilities()
	var names []string
	for _, c := range caps {
		names = append(names, c.Name)
		if c.Summary == "" {
			t.Errorf("%s has no summary", c.Name)
		}
	}
	want := "clock collections.read collections.write network.http network.socket network.websocket notify.user secrets.read storage.kv"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("catalogue = %s, want %s", got, want)
	}
	doc, err := os.ReadFile("../../../docs/broker-capabilities.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !strings.Contains(string(doc), "| `"+n+"` |") {
			t.Errorf("docs/broker-capabilities.md has no row for %s", n)
		}
	}
	if !slices.Contains(names, "secrets.read") || slices.Contains(names, "secret.read") {
		t.Errorf("the catalogue's names: %v", names)
	}
}

func FuzzReadExports(f *testing.F) {
	for _, s := range []string{
		"export const tools = { a: {} };", "export default { [X]: {}, ...y };", "module.exports = {}",
		"const t = `${`a`}`; export { t as tools }", "export default makeTools()", "import x from 'y'; export * from 'z'",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := ReadExports(src)
		if strings.Contains(describe(string(src), m), "<bad span") {
			t.Fatalf("span outside the input")
		}
	})
}

// An inputJsonSchema written as data reads as that data, through
// constants and spreads; one with a computed part is not static.
func TestInputSchemaValue(t *testing.T) {
	src := `const chat = { type: "string", minLength: 1 };
const base = { chat };
const LIMIT = 20;
export const tools = {
  "a.send": { description: "d", inputJsonSchema: { type: "object", properties: { ...base, n: { type: "integer", maximum: LIMIT, minimum: -1.5 }, tags: { type: "array", items: { enum: ["x", "y" + "z", null, true] } } }, required: ["chat"], additionalProperties: false }, execute() {} },
  "a.dyn": { inputJsonSchema: { type: "object", properties: makeProps() }, execute() {} },
  "a.none": { execute() {} },
};
`
	m := ReadExports([]byte(src))
	send := m.Tools.Lookup("a.send")
	if send == nil || !send.InputSchemaStatic {
		t.Fatalf("a.send: %+v", send)
	}
	got, _ := json.Marshal(send.InputSchemaValue)
	want := `{"additionalProperties":false,"properties":{"chat":{"minLength":1,"type":"string"},"n":{"maximum":20,"minimum":-1.5,"type":"integer"},"tags":{"items":{"enum":["x","yz",null,true]},"type":"array"}},"required":["chat"],"type":"object"}`
	if string(got) != want {
		t.Errorf("a.send schema\n got %s\nwant %s", got, want)
	}
	if d := m.Tools.Lookup("a.dyn"); d == nil || d.InputSchemaStatic || d.InputSchemaValue != nil || !d.InputSchema {
		t.Errorf("a.dyn: %+v", d)
	}
	if n := m.Tools.Lookup("a.none"); n == nil || n.InputSchema || n.InputSchemaStatic {
		t.Errorf("a.none: %+v", n)
	}
}
