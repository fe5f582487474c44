package checker

import (
	"os"
	"path/filepath"
	"testing"
)

// TestInputsAgree: a snapshot agrees with another when every file the
// first read has the same bytes in the second and every Exists answer is
// the same; ReadsWithin tells a second snapshot that read more.
func TestInputsAgree(t *testing.T) {
	dir := t.TempDir()
	manifest := []byte(`{"name": "x", "version": "1.0.0", "description": "d", "tools": []}`)
	for rel, s := range map[string][]byte{ManifestName: manifest, "code/a.ts": []byte("a")} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), s, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func(files map[string][]byte) *Plugin {
		t.Helper()
		ov := &Overlay{Files: map[string][]byte{}}
		for rel, b := range files {
			ov.Files[filepath.Join(dir, rel)] = b
		}
		p, err := Load(ov, dir)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	read := func(p *Plugin) *Plugin {
		if _, err := p.ReadFile("code/a.ts"); err != nil {
			t.Fatal(err)
		}
		p.Exists("code/b.ts")
		return p
	}
	old := read(load(nil))
	if q := load(nil); !old.InputsAgree(q) || !read(q).ReadsWithin(old) {
		t.Error("the same files: do not agree")
	}
	if q := load(map[string][]byte{"code/a.ts": []byte("A")}); old.InputsAgree(q) {
		t.Error("a file read with other bytes: agree")
	}
	if q := load(map[string][]byte{"code/b.ts": []byte("b")}); old.InputsAgree(q) {
		t.Error("a file that now exists: agree")
	}
	if q := load(map[string][]byte{ManifestName: append(manifest, ' ')}); old.InputsAgree(q) {
		t.Error("the manifest changed: agree")
	}
	q := load(nil)
	if !old.InputsAgree(q) {
		t.Fatal("the same files: do not agree")
	}
	if _, err := q.ReadFile("code/c.ts"); err == nil {
		t.Fatal("code/c.ts read")
	}
	if q.ReadsWithin(old) {
		t.Error("a file only the second read: within")
	}
}
