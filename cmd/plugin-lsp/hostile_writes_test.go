//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/tooltest"
)

// The hostile-folder corpus of the writers: every command that writes into
// a plugin (types, init, pin, check --fix, run --record, test --update and
// the editor's accept-snapshot through tooltest.Accept) meets, at every
// component of every path it writes, a symlink to a copy of that component
// outside the plugin, a symlink to a copy inside it, and at the file
// itself a hard link to an outside file and a FIFO. Outside the plugin the
// copies hold a planted secret. For each case a guard tree (everything
// outside the plugin, and the inside copies) is hashed before and after:
// no byte may change. The command must say why it refused (and exit
// non-zero), except where it only creates a file that is absent, where
// anything planted there is kept; the planted secret is never printed.

const plantedSecret = "PLANTED-SECRET-b51e7d"

type writingCommand struct {
	name  string
	base  func(t *testing.T, dir string)
	paths []string
	// createOnly: written only when absent; something planted there is
	// kept and the command may succeed.
	createOnly map[string]bool
	// seed: the text of a planted file where the base has none (so that
	// the command reads it and goes on to write).
	seed map[string]string
	// alsoWhy: other refusals that come first (a reader's).
	alsoWhy []string
	run     func(t *testing.T, dir string) (code int, out string)
}

// hashTree hashes names, types, permission bits, symlink targets and
// contents under dir, without following symlinks and without reading a
// FIFO.
func hashTree(t *testing.T, dir string) string {
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
			line += " " + hex.EncodeToString(sum[:8])
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

// noHang runs f and fails the test when it has not returned after two
// minutes (a write or a read that waits on a FIFO would never return); it
// is a hang detector, not a speed check.
func noHang(t *testing.T, f func() (int, string)) (int, string) {
	t.Helper()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		code, out := f()
		done <- result{code, out}
	}()
	select {
	case r := <-done:
		return r.code, r.out
	case <-time.After(2 * time.Minute):
		t.Fatal("the command is still running after 2 minutes (blocked on a FIFO?)")
		return 0, ""
	}
}

func cliOut(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := dispatch(args, strings.NewReader(""), &out, &errb)
	return code, out.String() + errb.String()
}

func booksBase(t *testing.T, dir string) { copyBooks(t, dir) }

func writingCommands(t *testing.T) []writingCommand {
	_, recordFactory := recordServer(t)
	testRunner := func(int) (runner.ToolRunner, func(), error) { return sharedRunFactory() }
	staleSnapshot := func(t *testing.T, dir string) {
		copyBooks(t, dir)
		// What is stored differs from what the case returns: the
		// update has to write.
		writePlugin(t, dir, map[string]string{"tests/__snapshots__/search-books.snap.json": `{"hobbit: titles, authors and cover status": 1}` + "\n"})
	}
	const snap = "tests/__snapshots__/search-books.snap.json"
	return []writingCommand{
		{
			name: "types",
			base: func(t *testing.T, dir string) {
				copyBooks(t, dir)
				must(t, os.RemoveAll(filepath.Join(dir, ".plugin")))
				must(t, os.Remove(filepath.Join(dir, "tsconfig.json")))
			},
			paths:      []string{".plugin/types.d.ts", ".plugin/fixtures.schema.json", ".plugin/tests.schema.json", "tsconfig.json"},
			createOnly: map[string]bool{"tsconfig.json": true},
			run:        func(t *testing.T, dir string) (int, string) { return cliOut("types", dir) },
		},
		{
			name:  "init-new",
			base:  func(t *testing.T, dir string) { must(t, os.MkdirAll(dir, 0o755)) },
			paths: []string{"plugin.json", "code/greet.ts", "fixtures.json", "tests/greet.json", ".plugin/types.d.ts", ".plugin/fixtures.schema.json", ".plugin/tests.schema.json", "tsconfig.json"},
			// init keeps every file that is there.
			createOnly: map[string]bool{"code/greet.ts": true, "tests/greet.json": true, "tsconfig.json": true},
			seed: map[string]string{
				"plugin.json":   `{"name":"seeded","version":"1.0.0","tools":[]}`,
				"fixtures.json": `{"secrets":{"k":"` + plantedSecret + `"},"fnFetch":[]}`,
			},
			run: func(t *testing.T, dir string) (int, string) { return cliOut("init", dir) },
		},
		{
			name:       "init-add-tool",
			base:       booksBase,
			paths:      []string{"plugin.json", "code/find-author.ts", "fixtures.json", "tests/find-author.json", ".plugin/types.d.ts"},
			createOnly: map[string]bool{"code/find-author.ts": true, "tests/find-author.json": true},
			run:        func(t *testing.T, dir string) (int, string) { return cliOut("init", dir, "--tool", "findAuthor") },
		},
		{
			name:  "pin",
			base:  booksBase,
			paths: []string{"plugin.lock.json"},
			// The source-tree hash refuses a link or a FIFO first.
			alsoWhy: []string{"a plugin directory must hold its files, not links", "plugin.lock.json is not a regular file"},
			run:     func(t *testing.T, dir string) (int, string) { return cliOut("pin", dir) },
		},
		{
			name: "check-fix-manifest",
			base: func(t *testing.T, dir string) {
				copyDir(t, filepath.Join(pluginsDir, "fix-domain-typo"), dir)
			},
			paths: []string{"plugin.json"},
			run:   func(t *testing.T, dir string) (int, string) { return cliOut("check", "--fix", dir) },
		},
		{
			name: "check-fix-page",
			base: func(t *testing.T, dir string) {
				copyBooks(t, dir)
				must(t, os.Remove(filepath.Join(dir, "code/lookup-book.ts")))
			},
			paths:      []string{"code/lookup-book.ts"},
			createOnly: map[string]bool{"code/lookup-book.ts": true},
			run:        func(t *testing.T, dir string) (int, string) { return cliOut("check", "--fix", dir) },
		},
		{
			name:  "run-record",
			base:  func(t *testing.T, dir string) { writePlugin(t, dir, recordPlugin) },
			paths: []string{"fixtures.json"},
			run: func(t *testing.T, dir string) (int, string) {
				var out, errb bytes.Buffer
				code := runCommand([]string{"--providers", "real", "--record", "--input", `{"q":"dune"}`, dir, "find"}, &out, &errb, recordFactory)
				return code, out.String() + errb.String()
			},
		},
		{
			name:  "test-update",
			base:  staleSnapshot,
			paths: []string{snap},
			run: func(t *testing.T, dir string) (int, string) {
				var out, errb bytes.Buffer
				code := testCommand([]string{"--update", "--run", "hobbit: titles", dir}, &out, &errb, testRunner)
				return code, out.String() + errb.String()
			},
		},
		{
			// The editor's "Accept the new result as snapshot" writes
			// through tooltest.Accept.
			name:  "accept-snapshot",
			base:  staleSnapshot,
			paths: []string{snap},
			run: func(t *testing.T, dir string) (int, string) {
				p, err := checker.Load(checker.OSFS{}, dir)
				if err != nil {
					return 1, err.Error()
				}
				s, err := tooltest.LoadSuite(p)
				if err != nil {
					return 1, err.Error()
				}
				for _, f := range s.Files {
					for _, c := range f.Cases {
						if c.Snapshot {
							if err := tooltest.Accept(p, c, json.RawMessage(`{"type":"markdown","text":"accepted"}`)); err != nil {
								return 1, err.Error()
							}
							return 0, "accepted"
						}
					}
				}
				return 1, "no snapshot case"
			},
		},
	}
}

// recordPlugin is the plugin of TestRunRecordAppendsFixtures, smaller.
var recordPlugin = map[string]string{
	"plugin.json": `{
  "name": "rec", "version": "1.0.0",
  "tools": [{ "name": "find", "page": "code/find" }],
  "capabilities": {
    "host": ["http.fetch"],
    "fetch": ["api.example.com"],
    "credentials": [{ "name": "key", "into": { "header": "Authorization", "format": "Bearer {{secret}}" } }]
  }
}`,
	"code/find.ts": `export default async function find(input: { q: string }) {
  const a = await http.fetch("https://api.example.com/v1/books?q=" + input.q);
  return { title: (await a.json()).title };
}
`,
	"fixtures.json": "{\n  \"fnFetch\": []\n}\n",
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
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

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// plantCopy puts at dst a copy of what is at src (a directory tree or a
// file), or, when nothing is there, an empty directory or a file holding
// the planted secret; a directory copy gets a planted file too.
func plantCopy(t *testing.T, src, dst string, isDir bool, seed string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	if _, err := os.Lstat(src); err == nil {
		if isDir {
			copyDir(t, src, dst)
		} else {
			b, err := os.ReadFile(src)
			must(t, err)
			must(t, os.WriteFile(dst, b, 0o644))
		}
	} else if isDir {
		must(t, os.MkdirAll(dst, 0o755))
	} else if seed != "" {
		must(t, os.WriteFile(dst, []byte(seed), 0o644))
	} else {
		must(t, os.WriteFile(dst, []byte(plantedSecret+"\n"), 0o644))
	}
	if isDir {
		must(t, os.WriteFile(filepath.Join(dst, "planted.txt"), []byte(plantedSecret+"\n"), 0o644))
	}
}

type writeHostile struct {
	name  string
	comp  string // the component planted (a prefix of the path)
	final bool   // comp is the whole path
	plant func(t *testing.T, dir, outside, alt, seed string)
	why   []string // one of them must be in the output
}

func hostilesFor(rel string) []writeHostile {
	parts := strings.Split(rel, "/")
	var hs []writeHostile
	for i := range parts {
		comp := strings.Join(parts[:i+1], "/")
		final := i == len(parts)-1
		refusal := "refused: " + comp + " is a symlink"
		if final {
			refusal = rel + ": refused: a symlink"
		}
		hs = append(hs,
			writeHostile{"symlink-out", comp, final, func(t *testing.T, dir, outside, alt, seed string) {
				at := filepath.Join(dir, comp)
				target := filepath.Join(outside, comp)
				plantCopy(t, at, target, !final, seed)
				must(t, os.RemoveAll(at))
				must(t, os.MkdirAll(filepath.Dir(at), 0o755))
				must(t, os.Symlink(target, at))
			}, []string{refusal, "path leaves the plugin directory"}},
			writeHostile{"symlink-in", comp, final, func(t *testing.T, dir, outside, alt, seed string) {
				at := filepath.Join(dir, comp)
				target := filepath.Join(alt, comp)
				plantCopy(t, at, target, !final, seed)
				if final { // something the command would change
					old, _ := os.ReadFile(target)
					must(t, os.WriteFile(target, append(old, ' '), 0o644))
				}
				must(t, os.RemoveAll(at))
				must(t, os.MkdirAll(filepath.Dir(at), 0o755))
				r, err := filepath.Rel(filepath.Dir(at), target)
				must(t, err)
				must(t, os.Symlink(r, at))
			}, []string{refusal}},
		)
		if final {
			hs = append(hs,
				writeHostile{"hard-link-out", comp, true, func(t *testing.T, dir, outside, alt, seed string) {
					at := filepath.Join(dir, comp)
					target := filepath.Join(outside, comp)
					plantCopy(t, at, target, false, seed)
					must(t, os.RemoveAll(at))
					must(t, os.MkdirAll(filepath.Dir(at), 0o755))
					must(t, os.Link(target, at))
				}, []string{rel + ": refused: a hard link"}},
				writeHostile{"fifo", comp, true, func(t *testing.T, dir, outside, alt, seed string) {
					at := filepath.Join(dir, comp)
					must(t, os.RemoveAll(at))
					must(t, os.MkdirAll(filepath.Dir(at), 0o755))
					must(t, syscall.Mkfifo(at, 0o644))
				}, []string{"not a regular file (a FIFO)"}},
			)
		}
	}
	return hs
}

func TestHostileWrites(t *testing.T) {
	cmds := writingCommands(t)
	n := 0
	for _, wc := range cmds {
		t.Run(wc.name, func(t *testing.T) {
			// The command works on the plain base: every path it is
			// said to write is written (so the corpus plants where
			// writes really go).
			t.Run("baseline", func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "plugin")
				wc.base(t, dir)
				if code, out := wc.run(t, dir); code != 0 && !strings.HasPrefix(wc.name, "check-fix") {
					t.Fatalf("exit %d on the plain base:\n%.3000s", code, out)
				}
				for _, rel := range wc.paths {
					if fi, err := os.Lstat(filepath.Join(dir, rel)); err != nil || !fi.Mode().IsRegular() {
						t.Errorf("%s not written on the plain base: %v", rel, err)
					}
				}
			})
			for _, rel := range wc.paths {
				for _, h := range hostilesFor(rel) {
					n++
					t.Run(h.comp+"/"+h.name, func(t *testing.T) {
						root := t.TempDir()
						dir := filepath.Join(root, "plugin")
						outside := filepath.Join(root, "outside")
						alt := filepath.Join(dir, ".alt") // inside targets
						wc.base(t, dir)
						must(t, os.MkdirAll(outside, 0o755))
						must(t, os.WriteFile(filepath.Join(outside, "bashrc"), []byte(plantedSecret+"\n"), 0o644))
						seed := ""
						if h.final {
							seed = wc.seed[rel]
						}
						h.plant(t, dir, outside, alt, seed)
						guard := hashTree(t, outside)
						var altHash string
						if _, err := os.Stat(alt); err == nil {
							altHash = hashTree(t, alt)
						}
						code, out := noHang(t, func() (int, string) { return wc.run(t, dir) })
						if got := hashTree(t, outside); got != guard {
							t.Errorf("a file outside the plugin changed:\n%s\nwas\n%s", got, guard)
						}
						if altHash != "" && hashTree(t, alt) != altHash {
							t.Errorf("the file a symlink inside points at changed")
						}
						if strings.Contains(out, plantedSecret) {
							t.Errorf("the planted secret was printed:\n%.3000s", out)
						}
						if strings.Contains(out, ": fixed [") {
							t.Errorf("a refused fix is reported as fixed:\n%.3000s", out)
						}
						said := false
						for _, w := range append(h.why, wc.alsoWhy...) {
							said = said || strings.Contains(out, w)
						}
						switch {
						case wc.createOnly[rel] && h.final && !said:
							// Kept: something is there, init and
							// the page fix never overwrite. The
							// guard above shows nothing was written.
						case code == 0 || !said:
							t.Errorf("exit %d, want a refusal saying one of %q:\n%.3000s", code, h.why, out)
						}
					})
				}
			}
		})
	}
	t.Logf("%d hostile cases over %d commands", n, len(cmds))
}

// TestHostileWritesDotDot: a page path with ".." (or absolute) in the
// manifest makes init refuse to create it, and check --fix creates
// nothing outside either.
func TestHostileWritesDotDot(t *testing.T) {
	for _, page := range []string{"../evil", "code/../../evil", "code/../../../evil.ts", "/tmp/evil-plugin-lsp-page"} {
		t.Run(strings.ReplaceAll(page, "/", "_"), func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "nest", "plugin")
			copyBooks(t, dir)
			manifest := filepath.Join(dir, "plugin.json")
			b, err := os.ReadFile(manifest)
			must(t, err)
			if !bytes.Contains(b, []byte(`"page": "code/lookup-book"`)) {
				t.Fatal("the base has no lookupBook page to replace")
			}
			must(t, os.WriteFile(manifest, bytes.Replace(b, []byte(`"page": "code/lookup-book"`), []byte(`"page": "`+page+`"`), 1), 0o644))
			guard := hashTree(t, root)
			code, out := cliOut("init", dir, "--tool", "lookupBook")
			if code == 0 || !strings.Contains(out, page+": refused: ") || !strings.Contains(out, "leaves the plugin directory") {
				t.Errorf("init: exit %d, want a refusal of %s:\n%s", code, page, out)
			}
			code, out = cliOut("check", "--fix", dir)
			if code == 0 || strings.Contains(out, ": fixed [") {
				t.Errorf("check --fix: exit %d:\n%s", code, out)
			}
			after := hashTree(t, root)
			for _, line := range strings.Split(after, "\n") {
				if strings.Contains(line, "evil") && !strings.HasPrefix(line, "nest/plugin/") {
					t.Errorf("created outside the plugin: %s", line)
				}
			}
			for _, p := range []string{"/tmp/evil-plugin-lsp-page", "/tmp/evil-plugin-lsp-page.ts"} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("created %s", p)
				}
			}
			if strip(after, "nest/plugin") != strip(guard, "nest/plugin") {
				t.Errorf("a file outside the plugin changed")
			}
		})
	}
}

// strip drops the lines of paths under prefix.
func strip(hash, prefix string) string {
	var keep []string
	for _, l := range strings.Split(hash, "\n") {
		if !strings.HasPrefix(l, prefix+"/") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
