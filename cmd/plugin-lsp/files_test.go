//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// copyTree copies testdata/example/books to dst.
func copyBooks(t *testing.T, dst string) {
	t.Helper()
	src := exampleDir
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHostileFiles: every reader of plugin files (the manifest, pages,
// native modules, fixtures.json, `run --fixtures`, the review hash) meets a
// FIFO, a character device, a symlink leading out and an oversized file.
// Each command ends (in a subprocess, so a blocked read cannot hang the
// test binary) with a clear error or diagnostic, and no other plugin's
// secret is printed.
func TestHostileFiles(t *testing.T) {
	const otherSecret = "other-plugin-secret-7c1d"
	root := t.TempDir()
	other := filepath.Join(root, "other")
	writePlugin(t, other, map[string]string{"fixtures.json": `{"secrets":{"openlibrary_key":"` + otherSecret + `"}}`})
	mkfifo := func(p string) {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	symlink := func(target, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	chardev := func(p string) bool { // /dev/null's numbers; needs root
		return syscall.Mknod(p, syscall.S_IFCHR|0o644, 0x0103) == nil
	}
	type step struct {
		args []string // after the command, DIR is appended (and TOOL for run)
		code int
		want string
	}
	cases := []struct {
		name  string
		setup func(dir string) bool // false: skip (needs root)
		steps map[string]step
	}{
		{"fixtures-fifo", func(d string) bool { os.Remove(d + "/fixtures.json"); mkfifo(d + "/fixtures.json"); return true }, map[string]step{
			"check":  {nil, 0, ""},
			"run":    {nil, 1, "fixtures.json: not a regular file (a FIFO)"},
			"review": {nil, 1, "fixtures.json is not a regular file"},
		}},
		{"fixtures-chardev", func(d string) bool { os.Remove(d + "/fixtures.json"); return chardev(d + "/fixtures.json") }, map[string]step{
			"run":    {nil, 1, "not a regular file (a character device)"},
			"review": {nil, 1, "fixtures.json is not a regular file"},
		}},
		{"fixtures-dev-zero", func(d string) bool {
			os.Remove(d + "/fixtures.json")
			symlink("/dev/zero", d+"/fixtures.json")
			return true
		}, map[string]step{
			"run":    {nil, 1, "path leaves the plugin directory"},
			"review": {nil, 1, "is a symlink"},
		}},
		{"fixtures-symlink-out", func(d string) bool {
			os.Remove(d + "/fixtures.json")
			symlink(filepath.Join(other, "fixtures.json"), d+"/fixtures.json")
			return true
		}, map[string]step{
			"check":  {nil, 0, ""},
			"run":    {nil, 1, "path leaves the plugin directory"},
			"review": {nil, 1, "is a symlink"},
		}},
		{"run-fixtures-flag-fifo", func(d string) bool { mkfifo(filepath.Join(root, "flag-fifo")); return true }, map[string]step{
			"run": {[]string{"--fixtures", filepath.Join(root, "flag-fifo")}, 1, "not a regular file (a FIFO)"},
		}},
		{"manifest-fifo", func(d string) bool { os.Remove(d + "/plugin.json"); mkfifo(d + "/plugin.json"); return true }, map[string]step{
			"check":  {nil, 1, "not a regular file (a FIFO)"},
			"run":    {nil, 2, "not a regular file (a FIFO)"},
			"review": {nil, 2, "not a regular file (a FIFO)"},
		}},
		{"page-fifo", func(d string) bool {
			os.Remove(d + "/code/lookup-book.ts")
			mkfifo(d + "/code/lookup-book.ts")
			return true
		}, map[string]step{
			"check": {nil, 1, `error: page "code/lookup-book" cannot be read: code/lookup-book.ts: not a regular file (a FIFO) [tool-page-missing]`},
			"run":   {nil, 1, "not a regular file (a FIFO)"},
		}},
		{"page-symlink-fifo", func(d string) bool {
			mkfifo(d + "/code/pipe")
			os.Remove(d + "/code/lookup-book.ts")
			symlink("pipe", d+"/code/lookup-book.ts")
			return true
		}, map[string]step{
			"check": {nil, 1, `cannot be read: code/lookup-book.ts: not a regular file (a FIFO) [tool-page-missing]`},
			"run":   {nil, 1, "not a regular file (a FIFO)"},
		}},
		{"page-huge", func(d string) bool {
			f, err := os.OpenFile(d+"/code/lookup-book.ts", os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			return f.Truncate(65<<20) == nil // sparse
		}, map[string]step{
			"check": {nil, 1, "larger than 64 MiB [tool-page-missing]"},
			"run":   {nil, 1, "larger than 64 MiB"},
		}},
		{"import-fifo", func(d string) bool {
			mkfifo(d + "/code/helper.ts")
			writePlugin(t, d, map[string]string{"code/lookup-book.ts": "import { h } from \"./helper\";\nexport default async function () { return h; }\n"})
			return true
		}, map[string]step{
			"run": {nil, 1, "not a regular file (a FIFO)"},
		}},
		{"native-fifo", func(d string) bool {
			os.Remove(d + "/native/telegram.js")
			mkfifo(d + "/native/telegram.js")
			return true
		}, map[string]step{
			"check":  {nil, 1, `native module "native/telegram.js" cannot be read: native/telegram.js: not a regular file (a FIFO) [native-module-missing]`},
			"review": {nil, 1, "native/telegram.js is not a regular file"},
		}},
		{"native-chardev", func(d string) bool { os.Remove(d + "/native/telegram.js"); return chardev(d + "/native/telegram.js") }, map[string]step{
			"check":  {nil, 1, "not a regular file (a character device) [native-module-missing]"},
			"review": {nil, 1, "native/telegram.js is not a regular file"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(root, c.name)
			copyBooks(t, dir)
			if !c.setup(dir) {
				t.Skip("creating a device needs root")
			}
			for cmd, s := range c.steps {
				args := append([]string{cmd}, s.args...)
				args = append(args, dir)
				if cmd == "run" {
					args = append(args, "--input", `{"isbn":"9780261103344"}`, "lookupBook")
				}
				code, out := subprocess(t, 60*time.Second, args...)
				if code != s.code || !strings.Contains(out, s.want) {
					t.Errorf("%s: exit %d (want %d), want %q in:\n%.1500s", cmd, code, s.code, s.want, out)
				}
				if strings.Contains(out, otherSecret) {
					t.Errorf("%s printed the other plugin's secret:\n%s", cmd, out)
				}
			}
		})
	}
}
