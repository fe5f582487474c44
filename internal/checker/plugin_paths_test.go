package checker

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		outside bool
	}{
		{"code/a", "code/a", false},
		{"./code//a", "code/a", false},
		{"code/../a", "", true}, // any '..' segment is refused, even one that stays inside
		{"../a", "", true},
		{"..", "", true},
		{"/etc/passwd", "", true},
		{"C:/x", "", true},
		{"code\\a", "", true},
		{"code/..a", "code/..a", false}, // a name starting with dots is fine
	} {
		got, err := Clean(tc.in)
		if tc.outside {
			if !errors.Is(err, ErrOutside) {
				t.Errorf("Clean(%q) = %q, %v; want ErrOutside", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.out {
			t.Errorf("Clean(%q) = %q, %v; want %q", tc.in, got, err, tc.out)
		}
	}
	if _, err := Clean(""); err == nil {
		t.Error("empty path accepted")
	}
}

func TestPluginPathsAndSymlinks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "plugin")
	outside := filepath.Join(root, "secret.js")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "code"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "native"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"p","version":"1.0.0"}`), 0o644))
	must(os.WriteFile(filepath.Join(dir, "code", "a.ts"), []byte("export default () => 1"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "code", "b.js"), []byte("export default () => 2"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "native", "real.js"), []byte("export const tools = {}"), 0o644))
	must(os.WriteFile(outside, []byte("stolen"), 0o644))
	if err := os.Symlink(outside, filepath.Join(dir, "native", "out.js")); err != nil {
		t.Skip(err)
	}
	must(os.Symlink("real.js", filepath.Join(dir, "native", "in.js")))
	must(os.Symlink(root, filepath.Join(dir, "up")))

	p, err := Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel    string
		exists bool
		inside bool
	}{
		{"code/a.ts", true, true},
		{"native/real.js", true, true},
		{"native/in.js", true, true},
		{"native/out.js", false, false},
		{"up/secret.js", false, false},
		{"code/missing.ts", false, true},
	} {
		if got := p.Exists(tc.rel); got != tc.exists {
			t.Errorf("Exists(%s) = %v", tc.rel, got)
		}
		if err := p.CheckInside(tc.rel); (err == nil) != tc.inside {
			t.Errorf("CheckInside(%s) = %v", tc.rel, err)
		}
	}
	if _, err := p.ReadFile("native/out.js"); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadFile through a symlink out: %v", err)
	}
	if _, err := p.ReadFile("../secret.js"); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadFile ..: %v", err)
	}
	if f, err := p.ReadFile("native/in.js"); err != nil || string(f.Text) != "export const tools = {}" {
		t.Errorf("ReadFile through a symlink in: %v", err)
	}
	for page, want := range map[string]string{
		"code/a": "code/a.ts", "code/b": "code/b.js", "code/b.js": "code/b.js", "code/c": "code/c.ts",
	} {
		rel, ok := p.ResolvePage(page)
		if rel != want || ok != (page != "code/c") {
			t.Errorf("ResolvePage(%s) = %s, %v", page, rel, ok)
		}
	}
	if rel, ok := p.Rel(filepath.Join(dir, "code", "a.ts")); !ok || rel != "code/a.ts" {
		t.Errorf("Rel = %s %v", rel, ok)
	}
	if _, ok := p.Rel(outside); ok {
		t.Error("Rel of a path outside")
	}
}

func TestFindPlugins(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a", "b/c", "b/c/nested", ".hidden/x", "node_modules/y", "empty"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
		if d != "empty" {
			os.WriteFile(filepath.Join(root, d, "plugin.json"), []byte("{}"), 0o644)
		}
	}
	got, err := FindPlugins(root)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, g := range got {
		r, _ := filepath.Rel(root, g)
		rel = append(rel, filepath.ToSlash(r))
	}
	if strings.Join(rel, ",") != "a,b/c" {
		t.Errorf("FindPlugins = %v", rel)
	}
	if got, _ := FindPlugins(filepath.Join(root, "a")); len(got) != 1 {
		t.Errorf("a plugin dir itself: %v", got)
	}
	if _, err := FindPlugins(filepath.Join(root, "missing")); err == nil {
		t.Error("missing root: no error")
	}
	if _, err := Load(nil, filepath.Join(root, "empty")); err == nil || !strings.Contains(err.Error(), "not a plugin directory") {
		t.Errorf("Load of a dir without plugin.json: %v", err)
	}
}
