package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
)

func testCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := testCommand(args, &out, &errb, func(int) (runner.ToolRunner, func(), error) { return sharedRunFactory() })
	return code, out.String(), errb.String()
}

func TestTestCommand(t *testing.T) {
	code, out, stderr := testCLI(books)
	if code != 0 || !strings.Contains(out, "ok    lookupBook/finds The Hobbit by ISBN") || !regexp.MustCompile(`\nok: 12 passed, 0 failed, 0 errors, 3 skipped in [0-9]+\.[0-9]{2} s\n$`).MatchString(out) || stderr != "" {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, _ = testCLI("--run", "^saveFavourite/", "--format", "tap", books)
	if code != 0 || !strings.HasPrefix(out, "TAP version 14\n1..4\n") {
		t.Errorf("--run/tap: exit %d\n%s", code, out)
	}

	// A failing case: exit 1 and the per-path diff.
	dir := copyTree(t, books)
	os.WriteFile(filepath.Join(dir, "tests", "extra.json"), []byte(`{"tool": "lookupBook", "cases": [
  {"name": "wrong title", "input": {"isbn": "9780261103344"}, "resultContains": {"value": "The Hobit"}}]}`), 0o644)
	code, out, _ = testCLI("--format=text", dir)
	if code != 1 || !strings.Contains(out, "FAIL  lookupBook/wrong title") || !strings.Contains(out, "result.value: differs\n          expected: \"The Hobit\"\n          actual:   \"The Hobbit\"\n") {
		t.Errorf("failing case: exit %d\n%s", code, out)
	}

	for _, bad := range [][]string{{}, {"--format", "xml", books}, {"--run", "(", books}, {"--timeout", "soon", books}, {"--nope", books}, {t.TempDir()}} {
		if code, _, stderr := testCLI(bad...); code != 2 || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q", bad, code, stderr)
		}
	}
	if code, out, _ := testCLI("--help"); code != 0 || !strings.Contains(out, "--update") {
		t.Errorf("help: %d %s", code, out)
	}
}
