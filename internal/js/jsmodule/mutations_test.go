package jsmodule

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mutationLines renders m.Mutations one per line: the code written, the
// root (export, def, import or prototype), the path, the reason.
func mutationLines(src string, m *Module) string {
	var b strings.Builder
	for _, mu := range m.Mutations {
		rootText := "export " + mu.Export
		switch {
		case mu.Proto:
			rootText = "prototype"
		case mu.From != "":
			rootText = fmt.Sprintf("import %s#%s", mu.From, mu.Name)
		case mu.Def:
			rootText = "def " + mu.Export
		}
		fmt.Fprintf(&b, "%s | %s %s | %s\n", src[mu.Span.Start:mu.Span.End], rootText, strings.Join(mu.Path, "."), mu.Reason)
	}
	return b.String()
}

func TestMutationRoots(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"an exported definition is a map and a definition",
			"export const send = { description: 'd', requires: ['clock'] };\nexport const tools = { send };\nsend.requires.push('x');",
			// Each exported object is read both ways (the consumer knows
			// which it is): as a map, its keys are tools.
			"send.requires.push('x') | export tools send.requires | `send.requires.push(…)` changes it\n" +
				"send.requires.push('x') | def tools send.requires | `send.requires.push(…)` changes it\n" +
				"send.requires.push('x') | export send requires | `send.requires.push(…)` changes it\n" +
				"send.requires.push('x') | def send requires | `send.requires.push(…)` changes it\n"},
		{"a write through an import names the module and the export",
			"import { send } from './send.js';\nimport * as ns from './ns.js';\nsend.needsApproval = false;\nns.other.requires.length = 0;",
			"send.needsApproval = false | import ./send.js#send needsApproval | `send.needsApproval = false` writes it\n" +
				"ns.other.requires.length = 0 | import ./ns.js#other requires.length | `ns.other.requires.length = 0` writes it\n"},
		{"top-level writes after a spread leave the copy alone; those before and in functions do not",
			"const base = ['clock'];\nbase.push('a');\nexport const tools = { t: { description: 'd', requires: [...base], execute() {} } };\nbase.push('b');\nexport function later() { base.push('c'); }",
			"base.push('a') | export tools t.requires | `base.push(…)` changes it\n" +
				"base.push('a') | def tools t.requires | `base.push(…)` changes it\n" +
				"base.push('c') | export tools t.requires | `base.push(…)` changes it\n" +
				"base.push('c') | def tools t.requires | `base.push(…)` changes it\n"},
		{"the tools map itself: assigned again, given away",
			"export let tools = { t: { description: 'd', execute() {} } };\nimport { keep } from 'k';\nkeep(tools);\ntools = {};",
			"keep(tools) | export tools  | `keep(tools)` is given it, which may change it\n" +
				"keep(tools) | def tools  | `keep(tools)` is given it, which may change it\n" +
				"tools = {} | export tools  | `tools` is assigned again (`tools = {}`)\n" +
				"tools = {} | def tools  | `tools` is assigned again (`tools = {}`)\n"},
		{"reads are not writes",
			"export const tools = { t: { description: 'd', requires: ['clock'], execute() {} } };\n" +
				"const names = Object.keys(tools); const r = tools.t.requires.includes('clock');\n" +
				"for (const k in tools) console.log(k, tools[k].description, JSON.stringify(tools[k]));\n" +
				"const copy = tools.t.requires.map((x) => x.toUpperCase()); copy.push('X');",
			""},
		{"too many values to tell apart: every protected value",
			strings.Repeat("", 0) + func() string {
				var b strings.Builder
				for i := 0; i < 40; i++ {
					fmt.Fprintf(&b, "export const d%d = { description: 'x' };\n", i)
				}
				b.WriteString("const all = [")
				for i := 0; i < 40; i++ {
					fmt.Fprintf(&b, "d%d, ", i)
				}
				b.WriteString("];\nexport const tools = { d0 };\nall[0].needsApproval = false;\n")
				return b.String()
			}(), "(many)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := ReadExports([]byte(c.src))
			if len(m.Errors) > 0 {
				t.Fatalf("errors: %v", m.Errors)
			}
			got := mutationLines(c.src, m)
			if c.want == "(many)" {
				// The write reaches every export, the map's entry included.
				if !strings.Contains(got, "all[0].needsApproval = false | export tools *.needsApproval") ||
					!strings.Contains(got, "all[0].needsApproval = false | def d39 needsApproval") {
					t.Errorf("collapsed set misses a root:\n%s", got)
				}
				return
			}
			if got != c.want {
				t.Errorf("mutations:\n--- got\n%s--- want\n%s", got, c.want)
			}
		})
	}
}

// Changes reads paths for a map: the tool, then its property; the
// prototype reaches every tool; a definition export's own mutations are
// not the map's.
func TestChanges(t *testing.T) {
	src := "const one = { description: 'd', execute() {} };\nexport const tools = { one };\n" +
		"one.needsApproval = false;\ntools.two = 1;\nObject.prototype.requires = [];\n"
	m := ReadExports([]byte(src))
	var got []string
	for _, c := range m.Changes("tools") {
		got = append(got, fmt.Sprintf("%s %q %q", src[c.Span.Start:c.Span.End], c.Tool, c.Prop))
	}
	want := []string{`one.needsApproval = false "one" "needsApproval"`, `Object.prototype.requires = [] "*" "requires"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A hostile module: a 20,000-name chain of aliases declared backwards,
// and 20,000 calls handing the aliases out. The search ends, finds the
// write at the end of the chain, and records at most maxMutations.
func TestMutationsHostileChain(t *testing.T) {
	src := aliasChain(20000)
	m := ReadExports([]byte(src))
	if len(m.Errors) > 0 {
		t.Fatal(m.Errors)
	}
	if len(m.Changes("tools")) == 0 || len(m.Mutations) > maxMutations {
		t.Fatalf("%d mutations (%d of the map)", len(m.Mutations), len(m.Changes("tools")))
	}
	short := aliasChain(3000)
	short = short[:strings.Index(short, "f0(")] // the chain without the calls
	m = ReadExports([]byte(short))
	found := false
	for _, c := range m.Changes("tools") {
		if c.Tool == "x" && c.Prop == "needsApproval" && strings.HasPrefix(short[c.Span.Start:], "a0.needsApproval") {
			found = true
		}
	}
	if !found {
		t.Errorf("the write through the last alias is not found")
	}
}

func aliasChain(n int) string {
	var b strings.Builder
	b.WriteString("export const tools = { x: { description: 'x', execute() {} } };\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "const a%d = a%d;\n", i, i+1)
	}
	fmt.Fprintf(&b, "const a%d = tools.x;\na0.needsApproval = false;\n", n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "f%d(a%d.x, a%d);\n", i%50, i, i+1)
	}
	return b.String()
}

// Every prefix of every module of the native-mutations corpus (cut every
// 5 bytes) reads without a panic in the search: ReadExports turns one
// into the error "cannot read module", which no prefix may produce.
func TestMutationsPrefixesNoPanic(t *testing.T) {
	files, err := filepath.Glob("../../checker/rules/testdata/native-mutations/*.js")
	if err != nil || len(files) < 30 {
		t.Fatalf("corpus: %v (%d files)", err, len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= len(src); n += 5 {
			m := ReadExports(src[:n])
			for _, e := range m.Errors {
				if strings.HasPrefix(e.Message, "cannot read module") {
					t.Fatalf("%s cut at %d: %s", f, n, e.Message)
				}
			}
		}
	}
}
