package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
)

// TestTypesStale: the example's committed types are fresh; a tool added
// by hand makes them stale (one info on the file, its fix is exactly what
// `types` writes, and applied the note goes); a file without the header
// (the author's own) and no file at all are not reported.
func TestTypesStale(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "testdata", "example", "books")
	err := filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func() (*checker.Plugin, []checker.Diagnostic) {
		p, err := checker.Load(nil, dir)
		if err != nil {
			t.Fatal(err)
		}
		return p, codes(checker.Run(p, All(), checker.DefaultConfig(), nil), TypesStale.Code)
	}
	if _, ds := check(); len(ds) != 0 {
		t.Fatalf("fresh types reported: %v", ds)
	}
	manifest := filepath.Join(dir, "plugin.json")
	text, _ := os.ReadFile(manifest)
	added := strings.Replace(string(text), `"tools": [`, `"tools": [
    {"name": "forecast", "description": "The forecast.", "inputJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},`, 1)
	if added == string(text) {
		t.Fatal("the example's plugin.json has no \"tools\": [")
	}
	os.WriteFile(manifest, []byte(added), 0o644)
	p, ds := check()
	if len(ds) != 1 {
		t.Fatalf("after adding a tool: %d types-stale, want 1: %v", len(ds), ds)
	}
	d := ds[0]
	if d.File != tstypes.TypesPath || d.Severity != checker.Info || !strings.Contains(d.Message, "plugin-lsp types") {
		t.Errorf("diagnostic: %+v", d)
	}
	fx := d.PreferredFix()
	if fx == nil || len(fx.Edits) != 1 || !fx.Safe() {
		t.Fatalf("fix: %+v", d.Fixes)
	}
	old, _ := os.ReadFile(filepath.Join(dir, tstypes.TypesPath))
	e := fx.Edits[0]
	got := string(old[:e.Span.Start]) + e.NewText + string(old[e.Span.End:])
	if got != string(tstypes.PluginTypes(p)) || !strings.Contains(got, "forecast: {") {
		t.Errorf("the fix does not write what plugin-lsp types writes")
	}
	os.WriteFile(filepath.Join(dir, tstypes.TypesPath), []byte(got), 0o644)
	if _, ds := check(); len(ds) != 0 {
		t.Errorf("after the fix: %v", ds)
	}
	os.WriteFile(manifest, text, 0o644) // stale again, but the file is the author's own now
	os.WriteFile(filepath.Join(dir, tstypes.TypesPath), []byte("declare const http: any;\n"), 0o644)
	if _, ds := check(); len(ds) != 0 {
		t.Errorf("a hand-written types.d.ts: %v", ds)
	}
	os.Remove(filepath.Join(dir, tstypes.TypesPath))
	if _, ds := check(); len(ds) != 0 {
		t.Errorf("no types.d.ts: %v", ds)
	}
}

// A native module's definition changed (a field of its inputJsonSchema,
// its requires) makes .plugin/native.d.ts stale, with plugin.json and
// types.d.ts untouched: one note on native.d.ts, whose fix writes what
// `types` writes.
func TestTypesStaleNative(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "testdata", "example", "books")
	filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, _ := os.ReadFile(path)
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	cache := checker.NewCache() // one for every check, as the language server keeps it
	check := func() (*checker.Plugin, []checker.Diagnostic) {
		p, err := checker.Load(nil, dir)
		if err != nil {
			t.Fatal(err)
		}
		return p, codes(checker.Run(p, All(), checker.DefaultConfig(), cache), TypesStale.Code)
	}
	if _, ds := check(); len(ds) != 0 {
		t.Fatalf("fresh types reported: %v", ds)
	}
	mod := filepath.Join(dir, "native", "telegram.js")
	text, _ := os.ReadFile(mod)
	changed := strings.Replace(string(text), `text: { type: "string" } }`, `text: { type: "string" }, silent: { type: "boolean" } }`, 1)
	if changed == string(text) {
		t.Fatal("telegram.js no longer has the text property")
	}
	os.WriteFile(mod, []byte(changed), 0o644)
	p, ds := check()
	if len(ds) != 1 || ds[0].File != tstypes.NativePath || !strings.Contains(ds[0].Message, "native modules") {
		t.Fatalf("after changing the schema: %v", ds)
	}
	fx := ds[0].PreferredFix()
	old, _ := os.ReadFile(filepath.Join(dir, tstypes.NativePath))
	e := fx.Edits[0]
	got := string(old[:e.Span.Start]) + e.NewText + string(old[e.Span.End:])
	if got != string(tstypes.NativeTypes(p)) || !strings.Contains(got, "silent?: boolean;") {
		t.Errorf("the fix does not write what plugin-lsp types writes:\n%s", got)
	}
	os.WriteFile(filepath.Join(dir, tstypes.NativePath), []byte(got), 0o644)
	if _, ds := check(); len(ds) != 0 {
		t.Errorf("after the fix: %v", ds)
	}
}
