package jspage

import (
	"strings"
	"testing"
)

// A page's analysis grows linearly with its size (esbuild's output is one
// line of the whole bundle; before the marks every position conversion
// decoded that line from its start, and 400 KB took 27 s where 100 KB
// took 2 s). Compare the two sizes' ns/op.
func BenchmarkLongLinePage(b *testing.B) {
	for _, size := range []int{100 << 10, 400 << 10} {
		src := []byte(longLinePage(size))
		b.Run(itoa(size>>10)+"KB", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				AnalyzeBundles([]string{"code/p.ts"}, func(string) ([]byte, error) { return src, nil })
			}
		})
	}
}

func longLinePage(size int) string {
	var b strings.Builder
	b.WriteString("const API = \"https://api.example.org\";\n")
	for n := 0; b.Len() < size-300; n++ {
		b.WriteString("function helper" + strings.Repeat("x", n%5) + itoa(n) + "(x: string, n: number): string {\n  const parts = x.split(\",\").map((p) => p.trim());\n  return parts.slice(0, n).join(\"-\");\n}\n")
	}
	b.WriteString("export default async function tool(input: { q: string }) {\n  const res = await http.fetch(`${API}/search?q=${encodeURIComponent(input.q)}`);\n  return { type: \"markdown\", text: await res.text() };\n}\n")
	return b.String()
}
