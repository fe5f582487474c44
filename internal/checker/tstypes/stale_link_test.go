package tstypes

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Stale reads .plugin/types.d.ts through the one reader: a types.d.ts that
// is a symlink to a file outside the plugin is not read, even when that
// file holds exactly what `types` would write (types --check would else
// tell whether an outside file equals the generated text).
func TestStaleDoesNotReadThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"name":"w","version":"1.0.0","sdk":1,"tools":[{"name":"t","page":"code/t.ts","description":"d"}],"capabilities":{"host":["http.fetch"]}}`
	if err := os.MkdirAll(filepath.Join(dir, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(manifest), 0o644)
	os.WriteFile(filepath.Join(dir, "code", "t.ts"), []byte("export default async () => 1;\n"), 0o644)
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "types.d.ts")
	if err := os.WriteFile(outside, PluginTypes(p), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, ".plugin"), 0o755)
	// Control: the same bytes as a regular file inside are up to date.
	inside := filepath.Join(dir, filepath.FromSlash(TypesPath))
	os.WriteFile(inside, PluginTypes(p), 0o644)
	if Stale(p) {
		t.Fatal("a fresh types.d.ts reads as stale")
	}
	os.Remove(inside)
	if err := os.Symlink(outside, inside); err != nil {
		t.Skip(err)
	}
	if !Stale(p) {
		t.Error("a types.d.ts linked to an outside file reads as up to date: the outside file was read")
	}
}
