package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
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
// package scripts/test.sh installs in internal/checker/tstypes/testdata/tsc).
func tscClean(t *testing.T, dir string) {
	t.Helper()
	tsc, _ := filepath.Abs("../../internal/checker/tstypes/testdata/tsc/node_modules/typescript/bin/tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("TypeScript compiler missing (%v): run ./scripts/test.sh, it runs npm ci in internal/checker/tstypes/testdata/tsc", err)
	}
	cmd := exec.Command("node", tsc, "--noEmit", "--pretty", "false", "-p", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

// init --tool NAME writes a tool of its own, never a copy of the greeter:
// its entry's description names it, its schema has its own property, its
// page fetches its own URL, fixtures.json answers that URL and its test
// expects that answer. check is clean, test passes and tsc is clean on the
// result, for names the manifest allows that are awkward as file names or
// JavaScript (digits, underscores, acronyms, "_", a reserved word, the
// name of a global the page uses, two names of one kebab case).
func TestInitToolOfItsOwn(t *testing.T) {
	names := []string{"forecast", "get_v2_item", "HTTPGet2", "_", "fooBar", "foo_bar", "delete", "http", "X"}
	dir := filepath.Join(t.TempDir(), "plugin-2")
	// A new plugin made with --tool has that tool only.
	if code, out, stderr := run(t, "init", dir, "--tool", names[0]); code != 0 {
		t.Fatalf("init --tool %s: exit %d\n%s%s", names[0], code, out, stderr)
	}
	for _, n := range names[1:] {
		if code, out, stderr := run(t, "init", dir, "--tool", n); code != 0 || !strings.Contains(out, "updated  plugin.json (added tool "+n+")") {
			t.Fatalf("init --tool %s: exit %d\n%s%s", n, code, out, stderr)
		}
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixtures.Parse(p.FixturesFile.Text)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	if len(p.Manifest.Tools) != len(names) {
		t.Fatalf("%d tools in plugin.json, want %d", len(p.Manifest.Tools), len(names))
	}
	for i, tool := range p.Manifest.Tools {
		name, _ := checker.Str(tool.Name)
		desc, _ := checker.Str(tool.Description)
		page, _ := checker.Str(tool.Page)
		if name != names[i] || !strings.Contains(desc, name) || strings.Contains(desc, "Greets") {
			t.Errorf("tool %d: name %q, description %q", i, name, desc)
		}
		schema := string(p.ManifestFile.Text[tool.InputSchema.Span.Start:tool.InputSchema.Span.End])
		if !strings.Contains(schema, `"query"`) || strings.Contains(schema, "greet") {
			t.Errorf("%s: schema %s", name, schema)
		}
		if other, dup := pages[page]; dup {
			t.Errorf("%s and %s share the page %s", other, name, page)
		}
		pages[page] = name
		rel, found := p.ResolvePage(page)
		if !found {
			t.Errorf("%s: page %s not written", name, page)
			continue
		}
		src := snapshotTree(t, dir)[rel]
		stem := strings.TrimSuffix(strings.TrimPrefix(rel, "code/"), ".ts")
		url := "https://api.example.com/v1/" + stem + "?query=example"
		if !strings.Contains(src, `Input<"`+name+`">`) || !strings.Contains(src, `"https://api.example.com/v1/`+stem+`?query="`) || strings.Contains(src, "world") {
			t.Errorf("%s: page %s:\n%s", name, rel, src)
		}
		answered := false
		for _, f := range fx.FnFetch {
			if fixtures.SameURL(f.URL, url) {
				answered = true
				if !strings.Contains(string(f.Body), name+" answered example") {
					t.Errorf("%s: the fixture of %s answers %s", name, url, f.Body)
				}
			}
		}
		if !answered {
			t.Errorf("%s: no fixture answers %s", name, url)
		}
		test := snapshotTree(t, dir)["tests/"+stem+".json"]
		if !strings.Contains(test, `"tool": "`+name+`"`) || !strings.Contains(test, url) {
			t.Errorf("%s: tests/%s.json:\n%s", name, stem, test)
		}
	}
	if code, out, stderr := run(t, "check", dir); code != 0 || out != "" {
		t.Fatalf("check: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr := testCLI(dir)
	if code != 0 || !strings.Contains(out, "ok: "+strconv.Itoa(2*len(names))+" passed, 0 failed, 0 errors") {
		t.Fatalf("test: exit %d\n%s%s", code, out, stderr)
	}
	for _, n := range names {
		if !strings.Contains(out, "ok    "+n+"/returns the answer to the example") {
			t.Errorf("no passing case of %s:\n%s", n, out)
		}
	}
	tscClean(t, dir)

	// init again changes nothing.
	before := snapshotTree(t, dir)
	for _, n := range names {
		if code, out, _ := run(t, "init", dir, "--tool", n); code != 0 || strings.Contains(out, "created") || strings.Contains(out, "updated  plugin.json") {
			t.Errorf("second init --tool %s changed something:\n%s", n, out)
		}
	}
	after := snapshotTree(t, dir)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed on the second init", k)
		}
	}
}
