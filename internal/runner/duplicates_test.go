package runner

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// TestRunRefusesDuplicateKeys: a plugin.json or fixtures.json with a key
// written twice is not run by "the last one wins": the record is an error
// naming both positions, and no sandbox starts.
func TestRunRefusesDuplicateKeys(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "example", "books"))
	manifest := string(books(t).ManifestFile.Text)
	fixturesText, err := checker.ReadRegular(filepath.Join(dir, checker.FixturesName), checker.MaxFileSize)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file, edit, with, errName, want string
	}{
		{"capabilities narrow then wide", checker.ManifestName, `"capabilities": {`, `"capabilities": {}, "capabilities": {`, "ManifestError", `duplicate key "capabilities": first written at `},
		{"a tool's page twice", checker.ManifestName, `"page": "code/lookup-book",`, `"page": "code/lookup-book", "page": "code/search-books",`, "ManifestError", `duplicate key "page" (/tools/0/page)`},
		{"a fixture's status twice", checker.FixturesName, `"url": "https://api.openlibrary.org/isbn/9780261103344.json",`, `"url": "https://api.openlibrary.org/isbn/9780261103344.json", "status": 200, "status": 500,`, "FixturesError", `duplicate key "status" (/fnFetch/0/status)`},
	} {
		files := map[string][]byte{}
		switch c.file {
		case checker.ManifestName:
			files[filepath.Join(dir, c.file)] = []byte(strings.Replace(manifest, c.edit, c.with, 1))
		default:
			files[filepath.Join(dir, c.file)] = []byte(strings.Replace(string(fixturesText), c.edit, c.with, 1))
		}
		for _, b := range files {
			if !strings.Contains(string(b), c.with) {
				t.Fatalf("%s: the edit did not apply", c.name)
			}
		}
		p, err := checker.Load(&checker.Overlay{Files: files}, dir)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := sharedRunner(t).Run(context.Background(), Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`), Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if rec.OK || rec.Error == nil || rec.Error.Name != c.errName || !strings.Contains(rec.Error.Message, c.want) || !strings.Contains(rec.Error.Message, ", again at ") || rec.Error.File != c.file {
			t.Errorf("%s: %+v", c.name, rec.Error)
		}
		if len(rec.Fetches) != 0 || rec.Usage.MemoryPeakBytes != 0 {
			t.Errorf("%s: the tool ran: %+v", c.name, rec.Usage)
		}
	}
}
