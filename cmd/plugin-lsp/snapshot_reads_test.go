//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
)

// TestTestNeverPrintsALinkedFile: a snapshot file, the __snapshots__
// directory or tests/ itself is a symlink to another plugin's files (its
// fixtures.json with the dev secret, its snapshots). test, in every
// format, refuses to read them ("path leaves the plugin directory") and
// never prints the other plugin's content as the expected value; with
// --update it refuses to write through them too.
func TestTestNeverPrintsALinkedFile(t *testing.T) {
	const secret = "other-plugin-secret-4be0c2"
	const snapName = "hobbit: titles, authors and cover status"
	newRunner := func(int) (runner.ToolRunner, func(), error) { return sharedRunFactory() }
	cases := map[string]func(t *testing.T, dir, other string){
		"snapshot-file-to-fixtures": func(t *testing.T, dir, other string) {
			snap := filepath.Join(dir, "tests/__snapshots__/search-books.snap.json")
			must(t, os.Remove(snap))
			must(t, os.Symlink(filepath.Join(other, "fixtures.json"), snap))
		},
		"snapshots-dir": func(t *testing.T, dir, other string) {
			snaps := filepath.Join(dir, "tests/__snapshots__")
			must(t, os.RemoveAll(snaps))
			must(t, os.Symlink(filepath.Join(other, "tests/__snapshots__"), snaps))
		},
		"snapshot-file-relative": func(t *testing.T, dir, other string) {
			snap := filepath.Join(dir, "tests/__snapshots__/search-books.snap.json")
			must(t, os.Remove(snap))
			must(t, os.Symlink("../../../other/tests/__snapshots__/search-books.snap.json", snap))
		},
		"tests-dir": func(t *testing.T, dir, other string) {
			must(t, os.RemoveAll(filepath.Join(dir, "tests")))
			must(t, os.Symlink(filepath.Join(other, "tests"), filepath.Join(dir, "tests")))
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dir, other := filepath.Join(root, "books"), filepath.Join(root, "other")
			copyBooks(t, dir)
			copyBooks(t, other)
			writePlugin(t, other, map[string]string{
				"fixtures.json": `{"secrets":{"openlibrary_key":"` + secret + `"},"fnFetch":[]}`,
				"tests/__snapshots__/search-books.snap.json": `{"` + snapName + `": {"stolen": "` + secret + `"}}`,
			})
			plant(t, dir, other)
			guard := hashTree(t, other)
			for _, args := range [][]string{
				{"--format", "text"}, {"--format", "junit"}, {"--format", "json"}, {"--format", "tap"}, {"--update"},
			} {
				var out, errb bytes.Buffer
				code := testCommand(append(args, dir), &out, &errb, newRunner)
				all := out.String() + errb.String()
				if strings.Contains(all, secret) {
					t.Errorf("%v printed the other plugin's secret:\n%.3000s", args, all)
				}
				if code == 0 || !(strings.Contains(all, "path leaves the plugin directory") || strings.Contains(all, "refused: ")) {
					t.Errorf("%v: exit %d, want a refusal:\n%.3000s", args, code, all)
				}
			}
			if hashTree(t, other) != guard {
				t.Error("the other plugin changed")
			}
		})
	}
}
