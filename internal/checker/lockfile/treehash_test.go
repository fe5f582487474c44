package lockfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const example = "../../../testdata/example/books"

// The hash must be what coreutils computes, byte for byte.
func TestTreeHashMatchesSha256sum(t *testing.T) {
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("sha256sum not installed")
	}
	odd := t.TempDir()
	files := map[string]string{
		"plugin.json":        `{"name":"odd","version":"1.0.0"}`,
		"code/a.ts":          "export default () => 1;\n",
		"code/B.ts":          "upper case sorts first in C\n",
		"code/space name.ts": "a space\n",
		"code/ünï.ts":        "non-ASCII name\n",
		"code/back\\slash":   "backslash in name\n",
		".hidden/x":          "dot files count\n",
		"empty":              "",
		"deep/a/b/c/d.txt":   "deep\n",
	}
	for name, body := range files {
		p := filepath.Join(odd, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{example, odd} {
		got, err := TreeHash(dir)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", `find . -type f -printf '%P\0' | xargs -0 sha256sum | LC_ALL=C sort | sha256sum`)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(string(out))[0]
		if got != want {
			lines, _ := TreeLines(dir)
			t.Errorf("%s: TreeHash = %s, sha256sum pipeline = %s\nour lines:\n%s", dir, got, want, strings.Join(lines, ""))
		}
	}
}

func TestTreeHashRefusesSymlinks(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{}`), 0o644)
	os.MkdirAll(filepath.Join(dir, "native"), 0o755)
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "native", "mod.js")); err != nil {
		t.Skip(err)
	}
	_, err := TreeHash(dir)
	if err == nil || !strings.Contains(err.Error(), "native/mod.js is a symlink") {
		t.Fatalf("want an error naming native/mod.js, got %v", err)
	}
	// A symlinked directory is refused too.
	os.Remove(filepath.Join(dir, "native", "mod.js"))
	os.Symlink(t.TempDir(), filepath.Join(dir, "lib"))
	if _, err := TreeHash(dir); err == nil || !strings.Contains(err.Error(), "lib is a symlink") {
		t.Fatalf("want an error naming lib, got %v", err)
	}
}

func TestTreeHashChangesWithContentAndName(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte("1"), 0o644)
	h1, _ := TreeHash(dir)
	os.WriteFile(filepath.Join(dir, "a"), []byte("2"), 0o644)
	h2, _ := TreeHash(dir)
	os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "b"))
	h3, _ := TreeHash(dir)
	if h1 == h2 || h2 == h3 || h1 == h3 {
		t.Fatalf("hashes should all differ: %s %s %s", h1, h2, h3)
	}
}
