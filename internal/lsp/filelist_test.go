package lsp

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPackageDocNamesItsFiles: the file list in the package comment
// (server.go) is true: every file it names exists, and it names every
// non-test file of the package.
func TestPackageDocNamesItsFiles(t *testing.T) {
	src, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src[:strings.Index(string(src), "\npackage lsp")])
	named := regexp.MustCompile(`\b[a-z_0-9]+\.go\b`).FindAllString(doc, -1)
	if len(named) < 10 {
		t.Fatalf("the package comment names %d files: %q", len(named), named)
	}
	files, _ := filepath.Glob("*.go")
	for _, n := range named {
		if !slices.Contains(files, n) {
			t.Errorf("the package comment names %s, which does not exist", n)
		}
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") && !slices.Contains(named, f) {
			t.Errorf("the package comment does not name %s", f)
		}
	}
}
