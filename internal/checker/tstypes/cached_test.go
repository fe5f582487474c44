package tstypes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// copyExample copies the example plugin (types.d.ts and native.d.ts
// generated, one native module) into a temp dir.
func copyExample(t *testing.T) string {
	t.Helper()
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
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// With a cache, a check of an unchanged plugin (loaded again, as check
// and the language server do) makes neither generated file again; a
// changed native module or manifest makes the file it feeds again, and
// the result is what the generator writes now.
func TestOutdatedCachedMakesOnce(t *testing.T) {
	dir := copyExample(t)
	made := map[string]int{}
	saved := generators
	t.Cleanup(func() { generators = saved })
	generators = append(generators[:0:0], saved...)
	for i := range generators {
		g := &generators[i]
		mk := g.make
		path := g.path
		g.make = func(p *checker.Plugin) []byte { made[path]++; return mk(p) }
	}
	c := checker.NewCache()
	outdated := func() []Generated {
		p, err := checker.Load(nil, dir)
		if err != nil {
			t.Fatal(err)
		}
		read := func(rel string) ([]byte, error) {
			f, err := p.ReadFile(rel)
			if err != nil {
				return nil, err
			}
			return f.Text, nil
		}
		got := OutdatedCached(p, read, c)
		for _, g := range got {
			if want := map[string][]byte{TypesPath: PluginTypes(p), NativePath: NativeTypes(p)}[g.Path]; string(g.Want) != string(want) {
				t.Errorf("%s: Want is not what the generator writes now", g.Path)
			}
		}
		return got
	}
	for i := 0; i < 3; i++ {
		if got := outdated(); len(got) != 0 {
			t.Fatalf("check %d: the example's files reported: %v", i, got)
		}
	}
	if made[TypesPath] != 1 || made[NativePath] != 1 {
		t.Fatalf("three checks of an unchanged plugin made the files %v times, want once each", made)
	}

	mod := filepath.Join(dir, "native", "telegram.js")
	text, _ := os.ReadFile(mod)
	changed := strings.Replace(string(text), `text: { type: "string" } }`, `text: { type: "string" }, silent: { type: "boolean" } }`, 1)
	if changed == string(text) {
		t.Fatal("telegram.js no longer has the text property")
	}
	if err := os.WriteFile(mod, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := outdated(); len(got) != 1 || got[0].Path != NativePath || !strings.Contains(string(got[0].Want), "silent?: boolean;") {
		t.Fatalf("after the module's edit: %v", got)
	}
	if made[TypesPath] != 1 || made[NativePath] != 2 {
		t.Fatalf("after the module's edit the files were made %v times, want types.d.ts once, native.d.ts twice", made)
	}
	if err := os.WriteFile(mod, text, 0o644); err != nil { // back: cached again
		t.Fatal(err)
	}
	if got := outdated(); len(got) != 0 || made[NativePath] != 2 {
		t.Fatalf("the module back as it was: %v, made %v", got, made)
	}

	manifest := filepath.Join(dir, checker.ManifestName)
	mtext, _ := os.ReadFile(manifest)
	edited := strings.Replace(string(mtext), `"description": "`, `"description": "Now: `, 1)
	if edited == string(mtext) {
		t.Fatal("plugin.json has no description")
	}
	if err := os.WriteFile(manifest, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	outdated()
	if made[TypesPath] != 2 || made[NativePath] != 3 {
		t.Fatalf("after a manifest edit the files were made %v times, want types.d.ts twice, native.d.ts three times", made)
	}
}
