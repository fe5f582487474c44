package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// BenchmarkCheckPathologicalPage: a cold check (new cache) of a plugin whose
// page is ~1 MB of one pathological shape. Target ≤ 1 s each.
func BenchmarkCheckPathologicalPage(b *testing.B) {
	const size = 1 << 20
	rep := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	shapes := map[string]string{
		"arrays":  "const z = " + rep("[") + ";",
		"blocks":  rep("{"),
		"unary":   "const z = " + rep("!") + "x;",
		"members": "const z = a" + rep(".a") + ";",
		"flat-ok": func() string { // 1 MB of ordinary statements
			var b strings.Builder
			for i := 0; b.Len() < size; i++ {
				fmt.Fprintf(&b, "const a%d = f(%d) + g(2);\n", i, i)
			}
			return b.String()
		}(),
		"long-url": fmt.Sprintf("const C = %q;\nexport default async () => http.fetch(`https://api.example.com/%s`);\n", strings.Repeat("a", 4096), strings.Repeat("${C}", (size-5000)/4)),
	}
	for name, body := range shapes {
		dir := b.TempDir()
		os.MkdirAll(filepath.Join(dir, "code"), 0o755)
		os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"p","version":"1.0.0","sdk":1,"tools":[{"name":"t","page":"code/t","description":"d"}],"capabilities":{"host":["http.fetch"],"fetch":["api.example.com"]}}`), 0o644)
		os.WriteFile(filepath.Join(dir, "code", "t.ts"), []byte("export default async function () { return 1; }\n"+body), 0o644)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				p, err := checker.Load(nil, dir)
				if err != nil {
					b.Fatal(err)
				}
				checker.Run(p, All(), checker.DefaultConfig(), checker.NewCache())
			}
		})
	}
}
