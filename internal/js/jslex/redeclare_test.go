package jslex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

func TestCheckRedeclarations(t *testing.T) {
	rep := func(s string, n int) string { return strings.Repeat(s, n) }
	refused := map[string]string{
		"const":             rep("const a = 1;\n", 65),
		"one line":          rep("const a=1;", 100),
		"let then var":      "let a;" + rep("var a;", 64),
		"class":             rep("class a {}\n", 65),
		"in a function":     "function f() {" + rep("let x = 0;", 65) + "}",
		"in a block":        "if (x) {" + rep("const y = 2\n", 70) + "}",
		"mixed":             rep("const a = 1; let a = 2; var a; function a() {}\n", 17),
		"after other names": distinct(200) + rep("const a = 1;", 65),
		"typescript":        rep("const a: number = 1;\n", 65),
		"in a switch":       "switch (k) {" + rep("case 1: const z = 1; break;\n", 65) + "}",
		"export const":      rep("export const a = 1;\n", 65),
	}
	for name, src := range refused {
		e := CheckRedeclarations(src, MaxRedeclarations)
		if e == nil {
			t.Errorf("%s: not refused", name)
			continue
		}
		if !strings.Contains(e.Message, "declared 65 times in one scope") || e.Offset <= 0 || e.Offset >= len(src) {
			t.Errorf("%s: %v", name, e)
		}
		// Ground truth: esbuild finds the same code wrong.
		if r := api.Transform(rep(src[:e.Offset], 1), api.TransformOptions{Loader: api.LoaderTS, LogLevel: api.LogLevelSilent}); len(r.Errors) == 0 {
			t.Errorf("%s: esbuild accepts the code before the refusal", name)
		}
	}
	accepted := map[string]string{
		"var":           rep("var a = 1;\n", 500),
		"functions":     rep("function a() {}\n", 500),
		"overloads":     rep("function f(a: string): void;\n", 500) + "function f(a: any) {}",
		"own blocks":    rep("{ const a = 1; }\n", 500),
		"own functions": rep("function f() { const a = 1; }\n", 500),
		"for heads":     rep("for (const x of xs) { const y = x; }\n", 500),
		"arrows":        rep("xs.map((x) => { const y = x; return y; });\n", 500),
		"member names":  rep("o.const\na = 1;\n", 100),
		"many names":    distinct(5000),
		"let of":        rep("for (let of of xs) {}\n", 100),
		"strings":       rep("s = 'const a = 1';\n", 100) + rep("// const a\n", 100),
	}
	for name, src := range accepted {
		if e := CheckRedeclarations(src, MaxRedeclarations); e != nil {
			t.Errorf("%s: refused: %v", name, e)
		}
	}
}

// BenchmarkCheckRedeclarations: 1 MB of redeclarations (which esbuild
// takes minutes to report) up to the refusal, and 1 MB of distinct names.
func BenchmarkCheckRedeclarations(b *testing.B) {
	src := strings.Repeat("x = [1, 2, 3].map((v) => { const w = v * 2; return w; });\n", 1<<20/60)
	for b.Loop() {
		if e := CheckCode(src); e != nil {
			b.Fatal(e)
		}
	}
}

func distinct(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "const a%d = %d;\n", i, i)
	}
	return b.String()
}
