package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// TestWarmRunFollowsEdits: what a warm run reuses (parsed fixtures,
// the compiled page) is keyed by content, so an edit on disk between two
// runs is what the next run sees (a loaded plugin is an immutable
// snapshot: an edit is a new load, as the language server and the CLI
// do), and an edit back finds the first version again.
func TestWarmRunFollowsEdits(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join("..", "..", "testdata", "example", "books"), dir)
	r := sharedRunner(t)
	run := func() *record.Record {
		t.Helper()
		p, err := checker.Load(checker.OSFS{}, dir)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Run(context.Background(), Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fixtures, err := os.ReadFile(filepath.Join(dir, "fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "code", "lookup-book.ts"))
	if err != nil {
		t.Fatal(err)
	}
	want := func(rec *record.Record, result string) {
		t.Helper()
		if !rec.OK || string(rec.Result) != result {
			t.Fatalf("got %s %+v, want %s", rec.Result, rec.Error, result)
		}
	}
	hobbit := `{"type":"stat","value":"The Hobbit","label":"Title"}`
	want(run(), hobbit)
	want(run(), hobbit)

	write("fixtures.json", strings.Replace(string(fixtures), `"title": "The Hobbit", "number_of_pages"`, `"title": "Farmer Giles", "number_of_pages"`, 1))
	want(run(), `{"type":"stat","value":"Farmer Giles","label":"Title"}`)

	write("code/lookup-book.ts", strings.Replace(string(page), `label: "Title"`, `label: "Book"`, 1))
	want(run(), `{"type":"stat","value":"Farmer Giles","label":"Book"}`)

	write("fixtures.json", `{"fnFetch": [`)
	if rec := run(); rec.OK || rec.Error.Name != "FixturesError" {
		t.Fatalf("a broken fixtures.json: %s %+v", rec.Result, rec.Error)
	}

	write("fixtures.json", string(fixtures))
	write("code/lookup-book.ts", string(page))
	want(run(), hobbit)

	// The manifest's facts (its reach, a key written twice) are kept by
	// the loaded manifest file: an edit is a new load, and the next run
	// follows it.
	manifest, err := os.ReadFile(filepath.Join(dir, "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	write("plugin.json", strings.Replace(string(manifest), `"api.openlibrary.org",`, `"api.example.org",`, 1))
	if rec := run(); rec.OK || len(rec.Fetches) != 1 || rec.Fetches[0].Refused == "" {
		t.Fatalf("the domain taken out of the manifest: %s %+v %+v", rec.Result, rec.Error, rec.Fetches)
	}
	write("plugin.json", strings.Replace(string(manifest), `"version": "1.2.0",`, `"version": "1.2.0", "version": "1.2.1",`, 1))
	if rec := run(); rec.OK || rec.Error.Name != "ManifestError" {
		t.Fatalf("a key written twice: %s %+v", rec.Result, rec.Error)
	}
	write("plugin.json", string(manifest))
	want(run(), hobbit)
}

// The canned responses are made once per fixtures.json content, but each
// run counts its own uses: a fixture answering once ("times": 1) answers
// once in every run, and a second fetch in the same run finds it used up.
func TestFixtureUsesPerRun(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join("..", "..", "testdata", "example", "books"), dir)
	path := filepath.Join(dir, "fixtures.json")
	fixtures, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	once := strings.Replace(string(fixtures), `"url": "https://api.openlibrary.org/isbn/9780261103344.json",`,
		`"url": "https://api.openlibrary.org/isbn/9780261103344.json", "times": 1,`, 1)
	if once == string(fixtures) {
		t.Fatal("the fixture to limit was not found")
	}
	if err := os.WriteFile(path, []byte(once), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	r := sharedRunner(t)
	for i := 0; i < 3; i++ {
		rec, err := r.Run(context.Background(), Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)})
		if err != nil || !rec.OK {
			t.Fatalf("run %d: %v %+v", i, err, rec.Error)
		}
	}
	twice := `export default async function twice() {
  const a = await http.fetch("https://api.openlibrary.org/isbn/9780261103344.json");
  const b = await http.fetch("https://api.openlibrary.org/isbn/9780261103344.json");
  return [a.status, b.status];
}
`
	if err := os.WriteFile(filepath.Join(dir, "code", "lookup-book.ts"), []byte(twice), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err = checker.Load(checker.OSFS{}, dir); err != nil {
		t.Fatal(err)
	}
	rec, err := r.Run(context.Background(), Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if rec.OK || rec.Error == nil || !strings.Contains(rec.Error.Message, "9780261103344") {
		t.Fatalf("the second fetch of a fixture with times 1 was answered: %s %+v", rec.Result, rec.Error)
	}
}
