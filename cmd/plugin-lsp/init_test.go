package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// snapshotTree returns every file under dir with its content.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return out
}

// The author's path: init, then check, test and tsc are all clean; a
// second tool the same way; init again changes nothing.
func TestInitToTestedPlugin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Weather!")
	code, out, stderr := run(t, "init", dir)
	if code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	for _, f := range []string{"plugin.json", "code/greet.ts", "fixtures.json", "tests/greet.json", ".plugin/types.d.ts", "tsconfig.json"} {
		if !strings.Contains(out, "created  "+f+"\n") {
			t.Errorf("init output lacks %q:\n%s", f, out)
		}
	}
	if !strings.Contains(snapshotTree(t, dir)["plugin.json"], `"name": "my-weather"`) {
		t.Errorf("plugin name not derived from the directory")
	}
	clean := func() {
		t.Helper()
		if code, out, stderr := run(t, "check", dir); code != 0 || out != "" {
			t.Fatalf("check: exit %d\n%s%s", code, out, stderr)
		}
		if code, out, stderr := testCLI(dir); code != 0 || !strings.Contains(out, "0 failed, 0 errors") {
			t.Fatalf("test: exit %d\n%s%s", code, out, stderr)
		}
		tscClean(t, dir)
	}
	clean()

	if code, out, stderr := run(t, "init", dir, "--tool", "lookupBook"); code != 0 || !strings.Contains(out, "updated  plugin.json (added tool lookupBook)") ||
		!strings.Contains(out, "created  code/lookup-book.ts") || !strings.Contains(out, "updated  .plugin/types.d.ts") {
		t.Fatalf("--tool: exit %d\n%s%s", code, out, stderr)
	}
	clean()
	if code, out, _ := testCLI(dir); !strings.Contains(out, "ok: 4 passed") {
		t.Errorf("4 cases expected:\n%s (%d)", out, code)
	}

	// Idempotent: nothing changes, everything is "kept".
	before := snapshotTree(t, dir)
	code, out, _ = run(t, "init", dir, "--tool", "lookupBook")
	if code != 0 || strings.Contains(out, "created") || strings.Contains(out, "updated") {
		t.Errorf("second init changed something:\n%s", out)
	}
	after := snapshotTree(t, dir)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed on the second init", k)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files before, %d after", len(before), len(after))
	}
}

// init never overwrites: an author's page and test stay as they are; a
// plugin without http.fetch gets the grant it needs.
func TestInitKeepsAuthorsFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte("{\n  \"name\": \"notes\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n    { \"name\": \"addNote\", \"page\": \"code/mine\" }\n  ]\n}\n"), 0o644)
	mine := "export default async function addNote(input: unknown) { return input; }\n"
	os.WriteFile(filepath.Join(dir, "code", "mine.ts"), []byte(mine), 0o644)
	code, out, stderr := run(t, "init", dir, "--tool", "addNote")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "kept     code/mine.ts") || !strings.Contains(out, "updated  plugin.json (added http.fetch in capabilities.host, api.example.com in capabilities.fetch)") {
		t.Errorf("output:\n%s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "code", "mine.ts")); string(got) != mine {
		t.Errorf("the author's page was changed:\n%s", got)
	}
	for _, bad := range [][]string{{"init"}, {"init", dir, "--tool", "2fast"}, {"init", dir, "--tool"}, {"init", dir, "--nope"}} {
		if code, _, stderr := run(t, bad...); code == 0 || stderr == "" {
			t.Errorf("%q: exit %d", bad, code)
		}
	}
	// A manifest that does not parse is left alone.
	broken := t.TempDir()
	os.WriteFile(filepath.Join(broken, "plugin.json"), []byte(`{"name": "x",`), 0o644)
	if code, _, stderr := run(t, "init", broken); code != 1 || !strings.Contains(stderr, "does not parse") {
		t.Errorf("broken manifest: exit %d %s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(broken, "plugin.json")); string(got) != `{"name": "x",` {
		t.Errorf("broken manifest rewritten: %s", got)
	}
	// A manifest with a key written twice is left alone too: which "tools"
	// would the new tool go into?
	dup := t.TempDir()
	dupText := `{"name": "x", "version": "1.0.0", "tools": [], "tools": []}`
	os.WriteFile(filepath.Join(dup, "plugin.json"), []byte(dupText), 0o644)
	if code, _, stderr := run(t, "init", dup, "--tool", "addNote"); code != 1 || !strings.Contains(stderr, `duplicate key "tools": first written at 1:35, again at 1:48`) {
		t.Errorf("duplicate key: exit %d %s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dup, "plugin.json")); string(got) != dupText {
		t.Errorf("manifest with a duplicate key rewritten: %s", got)
	}
}

// tscClean type-checks a plugin with the real TypeScript compiler (the npm
// package scripts/test.sh installs in analysis/tstypes/testdata/tsc).
func tscClean(t *testing.T, dir string) {
	t.Helper()
	tsc, _ := filepath.Abs("../../analysis/tstypes/testdata/tsc/node_modules/typescript/bin/tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("TypeScript compiler missing (%v): run ./scripts/test.sh, it runs npm ci in analysis/tstypes/testdata/tsc", err)
	}
	cmd := exec.Command("node", tsc, "--noEmit", "--pretty", "false", "-p", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}
