package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
)

// types --stdout prints exactly what types writes to .plugin/types.d.ts
// (the VS Code extension's TypeScript plugin reads it, so there is one
// generator) and writes nothing; it takes one plugin and refuses the rest.
func TestTypesStdout(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"name": "w", "version": "1.0.0", "description": "W.", "capabilities": {"host": ["http.fetch"]},
  "tools": [{"name": "forecast", "description": "F.", "page": "code/forecast.ts", "inputJsonSchema": {"type": "object", "properties": {"days": {"type": "integer"}}}}]}`
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(manifest), 0o644)
	os.WriteFile(filepath.Join(dir, "code", "forecast.ts"), []byte("export default async function forecast() { return 1; }\n"), 0o644)
	listing := func() string {
		var names []string
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
			return nil
		})
		sort.Strings(names)
		return strings.Join(names, " ")
	}
	before := listing()
	code, out, errs := run(t, "types", "--stdout", dir)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if listing() != before {
		t.Errorf("--stdout wrote files: %s", listing())
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(tstypes.PluginTypes(p)) || !strings.Contains(out, "forecast: {") {
		t.Errorf("--stdout is not what types writes:\n%s", out)
	}
	if code, _, _ := run(t, "types", dir); code != 0 {
		t.Fatal("types failed")
	}
	written, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tstypes.TypesPath)))
	if string(written) != out {
		t.Error("types wrote something else than --stdout printed")
	}
	for _, args := range [][]string{{"types", "--stdout"}, {"types", "--stdout", dir, dir}, {"types", "--stdout", "--check", dir}, {"types", "--stdout", t.TempDir()}} {
		if code, out, errs := run(t, args...); code != 2 || out != "" || !strings.Contains(errs, "plugin-lsp types:") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
