//go:build unix

package checker

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// treeHash hashes every name, type, permission, symlink target and file
// content under dir (without following symlinks).
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		line := fmt.Sprintf("%s %v", rel, fi.Mode())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// writeTestDirs makes root/plugin and root/outside (a guard tree with a
// planted secret and a directory) and returns both.
func writeTestDirs(t *testing.T) (plugin, outside string) {
	t.Helper()
	root := t.TempDir()
	plugin, outside = filepath.Join(root, "plugin"), filepath.Join(root, "outside")
	for _, d := range []string{plugin, filepath.Join(outside, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"secret", "types.d.ts", "sub/secret", "sub/types.d.ts"} {
		if err := os.WriteFile(filepath.Join(outside, f), []byte("planted-secret-"+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return plugin, outside
}

func TestWritePluginFileWrites(t *testing.T) {
	plugin, _ := writeTestDirs(t)
	if err := WritePluginFile(plugin, "a/b/c.txt", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(plugin, "a/b/c.txt")); err != nil || string(b) != "one" {
		t.Fatalf("a/b/c.txt: %q %v", b, err)
	}
	// Replacing keeps the file's bits, and is a new inode (a rename).
	p := filepath.Join(plugin, "a/b/c.txt")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Lstat(p)
	if err := WritePluginFile(plugin, "a/b/c.txt", []byte("two")); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Lstat(p)
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("after the rewrite: %q", b)
	}
	if after.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", after.Mode().Perm())
	}
	if os.SameFile(before, after) {
		t.Error("the file was rewritten in place, not replaced by a rename")
	}
	// Create never replaces.
	if err := CreatePluginFile(plugin, "a/b/c.txt", []byte("three")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreatePluginFile over a file: %v, want ErrExist", err)
	}
	if err := CreatePluginFile(plugin, "new.txt", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(plugin, "new.txt")); string(b) != "new" {
		t.Errorf("new.txt: %q", b)
	}
	if err := CheckPluginWrite(plugin, "x/y/z.txt"); err != nil {
		t.Errorf("CheckPluginWrite of a missing path: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(plugin, "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("CheckPluginWrite created x: %v", err)
	}
	if err := RemovePluginFile(plugin, "a/b/c.txt"); err != nil {
		t.Fatal(err)
	}
	if err := RemovePluginFile(plugin, "a/b/c.txt"); err != nil {
		t.Errorf("removing a missing file: %v", err)
	}
	// No temporary file is left behind.
	var left []string
	filepath.WalkDir(plugin, func(p string, d fs.DirEntry, err error) error {
		if strings.HasSuffix(p, ".tmp") {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestWritePluginFileRefusals plants, at every component of a three-level
// path, a symlink to a directory or file outside (absolute and relative),
// a symlink that stays inside, and at the target a hard link, a FIFO, a
// directory; each write, create, removal and look is refused with the
// plugin-relative path and the reason, and the outside tree is unchanged.
func TestWritePluginFileRefusals(t *testing.T) {
	const rel = "a/b/c.json"
	comps := []string{"a", "a/b", "a/b/c.json"}
	type hostile struct {
		name  string
		plant func(t *testing.T, plugin, outside, at string) // at: the OS path of the component
		want  string                                         // in the message
	}
	var cases []hostile
	for i, comp := range comps {
		last := i == len(comps)-1
		what := comp + " is a symlink"
		if last {
			what = "refused: a symlink"
		}
		target := func(outside string) string {
			if last {
				return filepath.Join(outside, "secret")
			}
			return filepath.Join(outside, "sub")
		}
		cases = append(cases,
			hostile{comp + "/symlink-out-absolute", func(t *testing.T, plugin, outside, at string) {
				must(t, os.Symlink(target(outside), at))
			}, what},
			hostile{comp + "/symlink-out-relative", func(t *testing.T, plugin, outside, at string) {
				r, _ := filepath.Rel(filepath.Dir(at), target(outside))
				must(t, os.Symlink(r, at))
			}, what},
			hostile{comp + "/symlink-inside", func(t *testing.T, plugin, outside, at string) {
				must(t, os.MkdirAll(filepath.Join(plugin, "elsewhere"), 0o755))
				if last {
					must(t, os.WriteFile(filepath.Join(plugin, "elsewhere", "f"), nil, 0o644))
					must(t, os.Symlink(filepath.Join(plugin, "elsewhere", "f"), at))
				} else {
					must(t, os.Symlink(filepath.Join(plugin, "elsewhere"), at))
				}
			}, what},
			hostile{comp + "/dangling-symlink", func(t *testing.T, plugin, outside, at string) {
				must(t, os.Symlink(filepath.Join(outside, "not-there"), at))
			}, what},
		)
		if !last {
			cases = append(cases, hostile{comp + "/a-file", func(t *testing.T, plugin, outside, at string) {
				must(t, os.WriteFile(at, []byte("x"), 0o644))
			}, comp + " is not a directory"})
		}
	}
	cases = append(cases,
		hostile{"hard-link-out", func(t *testing.T, plugin, outside, at string) {
			must(t, os.Link(filepath.Join(outside, "secret"), at))
		}, "refused: a hard link (2 names for one file)"},
		hostile{"fifo", func(t *testing.T, plugin, outside, at string) {
			must(t, syscall.Mkfifo(at, 0o644))
		}, "refused: not a regular file (a FIFO)"},
		hostile{"directory", func(t *testing.T, plugin, outside, at string) {
			must(t, os.Mkdir(at, 0o755))
		}, "refused: not a regular file (a directory)"},
	)
	modes := []struct {
		name  string
		write func(dir, rel string) error
	}{
		{"write", func(d, r string) error { return WritePluginFile(d, r, []byte("attacker text")) }},
		{"create", func(d, r string) error { return CreatePluginFile(d, r, []byte("attacker text")) }},
		{"remove", RemovePluginFile},
		{"look", CheckPluginWrite},
	}
	for _, c := range cases {
		for _, m := range modes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				plugin, outside := writeTestDirs(t)
				at := filepath.Join(plugin, "a/b/c.json")
				for _, comp := range comps {
					if strings.HasPrefix(c.name, comp+"/") {
						at = filepath.Join(plugin, comp)
					}
				}
				must(t, os.MkdirAll(filepath.Dir(at), 0o755))
				c.plant(t, plugin, outside, at)
				guard := treeHash(t, outside)
				plantedAt, _ := os.Lstat(at)
				err := m.write(plugin, rel)
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), rel+": refused: ") {
					t.Errorf("err = %v, want a refusal %q naming %s", err, c.want, rel)
				}
				if got := treeHash(t, outside); got != guard {
					t.Errorf("the outside tree changed:\n%s\nwas\n%s", got, guard)
				}
				if fi, err := os.Lstat(at); err != nil || fi.Mode() != plantedAt.Mode() {
					t.Errorf("the planted %s was replaced: %v %v", at, fi, err)
				}
			})
		}
	}
}

func TestWritePluginFileLexicalRefusals(t *testing.T) {
	plugin, outside := writeTestDirs(t)
	guard := treeHash(t, outside)
	for rel, want := range map[string]string{
		"../outside/secret":   "a path with '..' leaves the plugin directory",
		"code/../../x.ts":     "a path with '..'",
		"code/..":             "a path with '..'",
		"/etc/passwd":         "an absolute path",
		outside + "/secret":   "an absolute path",
		`..\outside\secret`:   "a path with a backslash leaves the plugin directory",
		"C:/x":                "an absolute path",
		"":                    "empty path",
		".":                   "the plugin directory is not a file",
		"./":                  "the plugin directory is not a file",
		"code/./../../secret": "a path with '..'",
	} {
		for _, f := range []func(string, string) error{
			func(d, r string) error { return WritePluginFile(d, r, []byte("x")) },
			func(d, r string) error { return CreatePluginFile(d, r, []byte("x")) },
			RemovePluginFile, CheckPluginWrite,
		} {
			err := f(plugin, rel)
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), rel+": refused: ") {
				t.Errorf("%q: %v, want a refusal %q", rel, err, want)
			}
		}
	}
	if got := treeHash(t, outside); got != guard {
		t.Errorf("the outside tree changed")
	}
	if es, _ := os.ReadDir(plugin); len(es) != 0 {
		t.Errorf("the plugin got files: %v", es)
	}
}

// TestWritePluginFileRace swaps, at each step of a write (a directory
// looked at but not yet opened, a directory opened, the target looked at,
// the last look done and the rename next), a component for a symlink to
// the outside directory or file. Whatever the moment, nothing outside
// changes: before the last look the write is refused, after it the
// rename replaces the symlink itself (rename(2) never follows the last
// component) and a directory opened before the swap is the one written.
func TestWritePluginFileRace(t *testing.T) {
	const rel = "a/b/c.json"
	for _, step := range []string{"dir", "opened", "target", "rename"} {
		for _, comp := range []string{"a", "a/b", "a/b/c.json"} {
			for mode, modeName := range map[writeMode]string{writeReplace: "write", writeCreate: "create", writeRemove: "remove"} {
				for _, to := range []string{"outside", "inside"} {
					t.Run(step+"/"+comp+"/"+modeName+"/"+to, func(t *testing.T) {
						plugin, outside := writeTestDirs(t)
						must(t, os.MkdirAll(filepath.Join(plugin, "a/b"), 0o755))
						if mode != writeCreate {
							must(t, os.WriteFile(filepath.Join(plugin, rel), []byte("old"), 0o644))
						}
						guard := treeHash(t, outside)
						swapped := false
						hook := func(s writeStep) {
							if s.At != step || swapped || ((step == "dir" || step == "opened") && s.Rel != comp) {
								return
							}
							at := filepath.Join(plugin, comp)
							target := filepath.Join(outside, "sub")
							if comp == rel {
								target = filepath.Join(outside, "secret")
							}
							if to == "inside" {
								// A relative link to a sibling: os.Root
								// follows it, only the inode checks catch it.
								sib := filepath.Join(filepath.Dir(at), "elsewhere")
								if comp == rel {
									must(t, os.WriteFile(sib, []byte("elsewhere"), 0o644))
								} else {
									must(t, os.MkdirAll(sib, 0o755))
								}
								target = "elsewhere"
							}
							// Move the real one aside (still inside the
							// plugin) and plant the symlink in its place.
							if _, err := os.Lstat(at); err == nil {
								must(t, os.Rename(at, at+".moved"))
							}
							must(t, os.Symlink(target, at))
							swapped = true
						}
						err := writePluginFile(plugin, rel, []byte("new"), mode, hook)
						if got := treeHash(t, outside); got != guard {
							t.Fatalf("the outside tree changed (err %v):\n%s", err, got)
						}
						if !swapped {
							return // this step does not occur for this mode and component
						}
						// Refused: the swapped component was still to be
						// used (a directory about to be opened, the target
						// before its last look). Otherwise the write went on
						// in the directory already open, or the rename
						// replaced the symlink.
						mustRefuse := step == "dir" || (step == "target" && comp == rel)
						switch {
						case mustRefuse && !errors.Is(err, ErrRefused) && !errors.Is(err, fs.ErrExist):
							t.Errorf("err = %v, want a refusal", err)
						case err == nil && mode != writeRemove && !holds(t, plugin, "new"):
							t.Errorf("written, but no file in the plugin holds the new text")
						}
						filepath.WalkDir(plugin, func(p string, d fs.DirEntry, err error) error {
							if err != nil || !strings.Contains(p, "elsewhere") {
								return nil
							}
							if b, err := os.ReadFile(p); d.Type().IsRegular() && (err != nil || string(b) != "elsewhere") {
								t.Errorf("written through the symlink: %s holds %q", p, b)
							}
							if es, _ := os.ReadDir(p); d.IsDir() && len(es) > 0 {
								t.Errorf("written through the symlink into %s", p)
							}
							return nil
						})
					})
				}
			}
		}
	}
}

// holds reports whether a regular file under dir has the text s.
func holds(t *testing.T, dir, s string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); string(b) == s {
				found = true
			}
		}
		return nil
	})
	return found
}

// TestWritePluginFileConcurrentSwap: a goroutine keeps swapping .plugin
// between a directory and a symlink to an outside directory while files
// are written under it; the outside directory never changes.
func TestWritePluginFileConcurrentSwap(t *testing.T) {
	plugin, outside := writeTestDirs(t)
	guard := treeHash(t, outside)
	dir := filepath.Join(plugin, ".plugin")
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.RemoveAll(dir)
			if i%2 == 0 {
				os.Symlink(filepath.Join(outside, "sub"), dir)
			} else {
				os.Mkdir(dir, 0o755)
			}
		}
	}()
	var wrote, refused int
	for range 2000 {
		err := WritePluginFile(plugin, ".plugin/types.d.ts", []byte("attacker text"))
		switch {
		case err == nil:
			wrote++
		case errors.Is(err, ErrRefused):
			refused++
		}
	}
	close(stop)
	<-done
	if got := treeHash(t, outside); got != guard {
		t.Fatalf("the outside tree changed after %d writes, %d refusals:\n%s", wrote, refused, got)
	}
	t.Logf("%d written, %d refused, the rest failed (the directory vanished)", wrote, refused)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestCreateFixNotOfferedThroughSymlink: a fix that creates a file the
// writer would refuse (under a symlinked code/, or with "..") is not
// offered, so that no editor creates it through the symlink; the message
// says why, and the other fixes stay.
func TestCreateFixNotOfferedThroughSymlink(t *testing.T) {
	plugin, outside := writeTestDirs(t)
	must(t, os.WriteFile(filepath.Join(plugin, ManifestName), []byte(`{"name":"x","version":"1.0.0"}`), 0o644))
	must(t, os.Symlink(outside, filepath.Join(plugin, "code")))
	p, err := Load(OSFS{}, plugin)
	must(t, err)
	rule := &Rule{Code: "x", Severity: Error, Run: func(pass *Pass) {
		for _, page := range []string{"code/a.ts", "ok/b.ts", "../c.ts"} {
			pass.Report(Diagnostic{File: ManifestName, Message: "missing " + page, Fixes: []Fix{
				{Title: "Edit", Edits: []Edit{{File: ManifestName, NewText: "x"}}},
				{Title: "Create " + page, Edits: []Edit{{File: page, Create: true, NewText: "x"}}},
			}})
		}
	}}
	got := map[string]string{}
	for _, d := range Run(p, []*Rule{rule}, nil, nil) {
		var titles []string
		for _, f := range d.Fixes {
			titles = append(titles, f.Title)
		}
		got[d.Message] = strings.Join(titles, ", ")
	}
	want := map[string]string{
		`missing code/a.ts (no fix "Create code/a.ts": code/a.ts: refused: code is a symlink)`: "Edit",
		"missing ok/b.ts": "Edit, Create ok/b.ts",
		`missing ../c.ts (no fix "Create ../c.ts": ../c.ts: refused: a path with '..' leaves the plugin directory)`: "Edit",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// BenchmarkWritePluginFile: one .plugin/types.d.ts-sized write (40 KiB,
// two components) through the writer, against a plain os.WriteFile.
func BenchmarkWritePluginFile(b *testing.B) {
	dir := b.TempDir()
	data := []byte(strings.Repeat("declare const x: number;\n", 1600))
	b.Run("WritePluginFile", func(b *testing.B) {
		for range b.N {
			if err := WritePluginFile(dir, ".plugin/types.d.ts", data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("os.WriteFile", func(b *testing.B) {
		os.MkdirAll(filepath.Join(dir, "plain"), 0o755)
		for range b.N {
			if err := os.WriteFile(filepath.Join(dir, "plain", "types.d.ts"), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	})
}
