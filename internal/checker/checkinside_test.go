package checker

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// countingFS counts the full symlink resolutions a read asks for.
type countingFS struct {
	FS
	evals int
}

func (c *countingFS) EvalSymlinks(name string) (string, error) {
	c.evals++
	return c.FS.EvalSymlinks(name)
}

// TestCheckInsideLinkedDir: a plugin reached through a symlinked
// directory reads its plain files with one resolution (the directory's),
// and a symlinked directory inside it that leads out is still refused,
// as is a symlinked file; a buffer that is only in an overlay still reads.
func TestCheckInsideLinkedDir(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real", "plugin")
	other := filepath.Join(root, "other")
	for _, d := range []string{filepath.Join(real, "code"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(real, "fixtures.json"), "{}")
	write(filepath.Join(real, "code", "a.ts"), "a")
	write(filepath.Join(other, "x.json"), "secret")
	link := filepath.Join(root, "link")
	for _, l := range [][2]string{{filepath.Join("real", "plugin"), link}, {"../../other", filepath.Join(real, "out")}, {filepath.Join(other, "x.json"), filepath.Join(real, "code", "x.json")}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"fixtures.json", "code/a.ts"} {
		c := &countingFS{FS: OSFS{}}
		if b, err := ReadPluginFile(c, link, rel); err != nil || len(b) == 0 {
			t.Fatalf("%s: %q %v", rel, b, err)
		}
		if c.evals != 1 {
			t.Errorf("%s: %d full resolutions, want 1 (the plugin directory's)", rel, c.evals)
		}
	}
	for _, rel := range []string{"out/x.json", "code/x.json"} {
		if b, err := ReadPluginFile(OSFS{}, link, rel); !errors.Is(err, ErrOutside) {
			t.Errorf("%s: %q %v, want ErrOutside", rel, b, err)
		}
	}
	ov := &Overlay{Files: map[string][]byte{filepath.Join(link, "code", "new.ts"): []byte("n"), filepath.Join(link, "out", "y.json"): []byte("y")}}
	if b, err := ReadPluginFile(ov, link, "code/new.ts"); err != nil || string(b) != "n" {
		t.Errorf("overlay file: %q %v", b, err)
	}
	if _, err := ReadPluginFile(ov, link, "out/y.json"); !errors.Is(err, ErrOutside) {
		t.Errorf("overlay file under a link leading out: %v, want ErrOutside", err)
	}
}

// BenchmarkReadPluginFile: one read of the example plugin's fixtures.json
// (what every run does), symlink check included.
func BenchmarkReadPluginFile(b *testing.B) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example", "books"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ReadPluginFile(OSFS{}, dir, FixturesName); err != nil {
			b.Fatal(err)
		}
	}
}
