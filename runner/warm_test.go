package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/analysis"
)

// TestWarmRunFollowsEdits: what a warm run reuses (parsed fixtures,
// the compiled page) is keyed by content, so an edit on disk between two
// runs is what the next run sees (a loaded plugin is an immutable
// snapshot: an edit is a new load, as the language server and the CLI
// do), and an edit back finds the first version again.
func TestWarmRunFollowsEdits(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join("..", "testdata", "example", "books"), dir)
	r := sharedRunner(t)
	run := func() *Record {
		t.Helper()
		p, err := analysis.Load(analysis.OSFS{}, dir)
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
	want := func(rec *Record, result string) {
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
}
