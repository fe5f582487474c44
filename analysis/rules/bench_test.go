package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// BenchmarkCheckExampleWarm: load + every rule on testdata/example/books in
// a warm process: the cache already holds the compiled schema and the
// page/module analyses (what the server has after the first check).
// Target ≤ 2 ms.
func BenchmarkCheckExampleWarm(b *testing.B) {
	cfg := analysis.DefaultConfig()
	cache := analysis.NewCache()
	all := All()
	dir := "../../testdata/example/books"
	for i := 0; i < b.N; i++ {
		p, err := analysis.Load(nil, dir)
		if err != nil {
			b.Fatal(err)
		}
		if ds := analysis.Run(p, all, cfg, cache); len(ds) != 0 {
			b.Fatalf("example not clean: %v", ds)
		}
	}
}

// BenchmarkCheckExampleEdited: the same, but the manifest changes every
// time (an author typing): schema validation and the manifest rules run
// for real; pages and modules come from the cache.
func BenchmarkCheckExampleEdited(b *testing.B) {
	cfg := analysis.DefaultConfig()
	cache := analysis.NewCache()
	all := All()
	dir := "../../testdata/example/books"
	text, err := os.ReadFile(filepath.Join(dir, "plugin.json"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		edited := []byte(strings.Replace(string(text), `"1.2.0"`, fmt.Sprintf(`"1.2.%d"`, i), 1))
		p := analysis.LoadBytes(nil, dir, edited)
		if ds := analysis.Run(p, all, cfg, cache); len(ds) != 0 {
			b.Fatalf("not clean: %v", ds)
		}
	}
}

// manyTools writes a plugin with n function tools (10 distinct pages) and
// returns its dir and manifest.
func manyTools(b *testing.B, n int) (string, []byte) {
	dir := b.TempDir()
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	for k := 0; k < 10; k++ {
		os.WriteFile(filepath.Join(dir, "code", fmt.Sprintf("p%d.ts", k)), []byte(fmt.Sprintf(
			"// page %d\nexport default async function p(input: { q: string }) {\n  const r = await http.fetch(`https://api.example.com/v%d/${input.q}`);\n  return { type: \"markdown\", text: await r.text() };\n}\n", k, k)), 0o644)
	}
	var sb strings.Builder
	sb.WriteString("{\n  \"name\": \"many\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `    { "name": "tool%d", "page": "code/p%d", "description": "Tool %d", "inputJsonSchema": { "type": "object", "properties": { "q": { "type": "string" } }, "required": ["q"] } }`, i, i%10, i)
	}
	sb.WriteString("\n  ],\n  \"capabilities\": { \"host\": [\"http.fetch\"], \"fetch\": [\"api.example.com\"] }\n}\n")
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(sb.String()), 0o644)
	return dir, []byte(sb.String())
}

// BenchmarkCheck1000Tools: load + every rule on a 1,000-tool manifest,
// nothing memoized but the compiled schema and the 10 pages' analyses
// (the manifest is new each time). Target ≤ 50 ms.
func BenchmarkCheck1000Tools(b *testing.B) {
	dir, text := manyTools(b, 1000)
	cfg := analysis.DefaultConfig()
	cache := analysis.NewCache()
	all := All()
	p := analysis.LoadBytes(nil, dir, text)
	if ds := analysis.Run(p, all, cfg, cache); len(ds) != 0 {
		b.Fatalf("%d diagnostics, first %s: %s", len(ds), ds[0].Code, ds[0].Message)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		edited := append(append([]byte{}, text...), whitespaceOf(i)...) // a new content hash
		p := analysis.LoadBytes(nil, dir, edited)
		if ds := analysis.Run(p, all, cfg, cache); len(ds) != 0 {
			b.Fatalf("%d diagnostics", len(ds))
		}
	}
}

// BenchmarkPositionMap200KB: the JSON tree with byte spans of a 200 KB
// manifest, plus its line index. Target ≤ 5 ms.
func BenchmarkPositionMap200KB(b *testing.B) {
	_, text := manyTools(b, 1)
	var sb strings.Builder
	sb.WriteString("{\n  \"name\": \"many\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n")
	for i := 0; sb.Len() < 200<<10; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `    { "name": "tool%d", "page": "code/p%d", "description": "Tool %d: düsseldorf 😀", "inputJsonSchema": { "type": "object", "properties": { "q": { "type": "string" } }, "required": ["q"] } }`, i, i%10, i)
	}
	sb.WriteString("\n  ]\n}\n")
	text = []byte(sb.String())
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		root, err := jsonpos.Parse(text)
		if err != nil || root == nil {
			b.Fatal(err)
		}
		f := analysis.NewFile("plugin.json", text)
		if f.Position(len(text)).Line == 0 {
			b.Fatal("no lines")
		}
	}
}

// whitespaceOf encodes i as trailing spaces and tabs: the same JSON, a
// different content hash.
func whitespaceOf(i int) []byte {
	out := []byte{'\n'}
	for ; i > 0; i >>= 1 {
		out = append(out, " \t"[i&1])
	}
	return out
}
