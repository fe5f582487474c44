package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden/*.txt from the current output")

var (
	durationRe = regexp.MustCompile(`\b\d+\.\d+ (ms|s)\b`)
	hashRe     = regexp.MustCompile(`sha256:[0-9a-f]{64}`)
)

// normalise replaces what differs between runs: durations, tree hashes
// and the temporary directory.
func normalise(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "DIR")
	s = durationRe.ReplaceAllString(s, "N $1")
	return hashRe.ReplaceAllString(s, "sha256:HASH")
}

// golden compares got with testdata/golden/<name>.txt (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s: the output differs from %s\n--- got\n%s--- want\n%s", name, path, got, want)
	}
}

// transcript runs one command and renders its exit status, stdout and
// stderr, each stream under its own heading.
func transcript(t *testing.T, dir string, args ...string) string {
	t.Helper()
	var code int
	var out, errs string
	if args[0] == "test" {
		code, out, errs = testCLI(args[1:]...)
	} else {
		code, out, errs = run(t, args...)
	}
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = normalise(a, dir)
	}
	return normalise("$ plugin-lsp "+strings.Join(shown, " ")+"\nexit "+strconv.Itoa(code)+"\n-- stdout\n"+out+"-- stderr\n"+errs, dir)
}

// Every line each command prints, in order, on the author's path from
// init to a pinned plugin with a failing test: no stray line (a bare
// duration), each summary once, stdout and stderr each holding what
// they should.
func TestOutputShapes(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "weather")
	var b strings.Builder
	step := func(args ...string) { b.WriteString(transcript(t, root, args...) + "\n") }
	step("init", dir)
	step("check", dir)
	step("check", "--format", "json", dir)
	step("test", dir)
	step("test", "--format", "tap", dir)
	step("types", dir)
	step("types", "--check", dir)
	step("pin", dir)
	step("check", "--diff", dir)
	step("check", "--fix", dir)
	step("init", dir, "--tool", "forecast")
	step("init", dir, "--tool", "forecast")
	step("test", "--run", "^forecast/", dir)

	// A failing case and an error in the plugin.
	if err := os.WriteFile(filepath.Join(dir, "tests", "extra.json"), []byte(`{"tool": "greet", "cases": [
  {"name": "wrong greeting", "input": {"name": "world"}, "result": {"type": "markdown", "text": "Hi"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	step("test", dir)
	m, _ := os.ReadFile(filepath.Join(dir, "plugin.json"))
	if err := os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(strings.Replace(string(m), `"http.fetch"`, `"http.fetsh"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	step("check", dir)
	golden(t, "author-path", b.String())
}
