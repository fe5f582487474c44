package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// bigTextPlugin writes a plugin with n tools, each with a long Markdown
// description and a schema of 20 described properties.
func bigTextPlugin(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	var tools []map[string]any
	desc := strings.Repeat("Search the **catalogue** by title, author or ISBN; results are cached for 10 minutes. ", 20)
	for i := 0; i < n; i++ {
		props := map[string]any{}
		for j := 0; j < 20; j++ {
			props[fmt.Sprintf("p%d", j)] = map[string]any{"type": "string", "description": "A filter; always lower case, never empty.", "enum": []string{"a", "b", "c"}}
		}
		tools = append(tools, map[string]any{"name": fmt.Sprintf("t%d", i), "page": "code/t", "description": desc,
			"inputJsonSchema": map[string]any{"type": "object", "properties": props}})
	}
	b, _ := json.MarshalIndent(map[string]any{"name": "big", "version": "1.0.0", "tools": tools}, "", "  ")
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.WriteFile(filepath.Join(dir, "code", "t.ts"), []byte("export default async function t() { return 1; }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "plugin.json"), b, 0o644)
	return dir
}

// BenchmarkTextRules: text-hidden-characters and text-instructions on 100
// tools (~170 KB of descriptions, 2,000 schema properties).
func BenchmarkTextRules(b *testing.B) {
	p, err := checker.Load(nil, bigTextPlugin(b, 100))
	if err != nil {
		b.Fatal(err)
	}
	rules := []*checker.Rule{TextHiddenCharacters, TextInstructions}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ds := checker.Run(p, rules, nil, nil); len(ds) != 0 {
			b.Fatalf("clean text flagged: %v", ds[0].Message)
		}
	}
}

// BenchmarkInstructionsHostile: the patterns on 64 KB built to make a
// backtracking engine slow (Go's regexp is linear; this shows it stays so).
func BenchmarkInstructionsHostile(b *testing.B) {
	s := strings.Repeat("ignore all do not tell before every send to ", 1500)[:64<<10]
	for i := 0; i < b.N; i++ {
		checker.Instructions(s)
	}
}
