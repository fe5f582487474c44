package checker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDirWithin(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	for _, d := range []string{"ws/a/b", "out/p"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a", "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "out"), filepath.Join(root, "a", "link")); err != nil {
		t.Skip(err)
	}
	// The root may itself be a symlink: the user chose it.
	if err := os.Symlink(root, filepath.Join(base, "alias")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		root, dir string
		want      string // "" inside, else part of the error
	}{
		{root, root, ""},
		{root, filepath.Join(root, "a", "b"), ""},
		{filepath.Join(base, "alias"), filepath.Join(base, "alias", "a"), ""},
		{root, filepath.Join(base, "out", "p"), "is not inside"},
		{root, base, "is not inside"},
		{root, filepath.Join(root, "a", "link", "p"), "a/link is a symbolic link"},
		{root, filepath.Join(root, "a", "link"), "a/link is a symbolic link"},
		{root, filepath.Join(root, "a", "file"), "a/file is not a directory"},
		{root, filepath.Join(root, "a", "missing"), "no such file"},
		{root, root + "/a/../../out/p", "contains '..'"},
		{root, "a/b", "not an absolute path"},
	} {
		err := DirWithin(c.root, c.dir)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("DirWithin(%s, %s): %v, want inside", c.root, c.dir, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("DirWithin(%s, %s): %v, want an error with %q", c.root, c.dir, err, c.want)
		}
	}
}
