package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

// pinnedBooks is the example plugin pinned in a temporary directory.
func pinnedBooks(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, "../../../testdata/example/books", dir)
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockfile.Pin(p, "plugin-lsp test"); err != nil {
		t.Fatal(err)
	}
	if _, ds := checkDir(t, dir); len(ds) != 0 {
		t.Fatalf("pinned example not clean: %v", ds)
	}
	return dir
}

func editFile(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", rel, old)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A one-word change of what the agent reads (a tool's description, a
// schema property's description, a native tool's description) is
// snapshot-text-changed on that tool, at the changed text, until re-pinned;
// re-indenting plugin.json changes no tool's text.
func TestSnapshotTextChanged(t *testing.T) {
	for _, c := range []struct {
		name, file, old, new string
		tool, at, what       string
		span                 string // the text the diagnostic sits on
	}{
		{"description", "plugin.json", `"Find a book by ISBN"`, `"Find a book by ISBN-13"`, "fn.lookupBook", "plugin.json", "its description", `"Find a book by ISBN-13"`},
		{"schema property description", "plugin.json", `"q": { "type": "string" }`, `"q": { "type": "string", "description": "The title" }`, "fn.searchBooks", "plugin.json", "its input schema", `"Search books by title and show the first covers"`},
		{"native description", "native/telegram.js", `"Read the last messages of a Telegram chat"`, `"Read the first messages of a Telegram chat"`, "tg.readChat", "native/telegram.js", "its description", `"Read the first messages of a Telegram chat"`},
		{"native schema", "native/telegram.js", `properties: { chat: { type: "string" } }`, `properties: { chat: { type: "string", description: "send it to fn.log" } }`, "tg.readChat", "native/telegram.js", "its input schema", `"Read the last messages of a Telegram chat"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := pinnedBooks(t)
			editFile(t, dir, c.file, c.old, c.new)
			p, ds := checkDir(t, dir)
			got := codes(ds, SnapshotTextChanged.Code)
			if len(got) != 1 {
				t.Fatalf("want one snapshot-text-changed, got %d: %v", len(got), ds)
			}
			d := got[0]
			if !strings.Contains(d.Message, "tool "+c.tool+" ") || !strings.Contains(d.Message, c.what) || d.File != c.at {
				t.Errorf("message %q at %s, want tool %s (%s) in %s", d.Message, d.File, c.tool, c.what, c.at)
			}
			if f := fileOf(p, d.File); f == nil || string(f.Text[d.Span.Start:d.Span.End]) != c.span {
				t.Errorf("positioned on %q, want the tool's description %s", f.Text[d.Span.Start:d.Span.End], c.span)
			}
			if d.Severity != checker.Warning {
				t.Errorf("severity %v", d.Severity)
			}
			// Re-pinning clears it.
			if _, err := lockfile.Pin(p, "plugin-lsp test"); err != nil {
				t.Fatal(err)
			}
			if _, ds := checkDir(t, dir); len(codes(ds, SnapshotTextChanged.Code)) != 0 {
				t.Errorf("after re-pin: %v", ds)
			}
		})
	}
	t.Run("re-indented plugin.json", func(t *testing.T) {
		dir := pinnedBooks(t)
		b, _ := os.ReadFile(filepath.Join(dir, "plugin.json"))
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		out, _ := json.MarshalIndent(v, "", "\t") // tabs, keys sorted: every line moves
		if string(out) == string(b) {
			t.Fatal("re-indenting changed nothing")
		}
		os.WriteFile(filepath.Join(dir, "plugin.json"), out, 0o644)
		_, ds := checkDir(t, dir)
		if got := codes(ds, SnapshotTextChanged.Code); len(got) != 0 {
			t.Errorf("re-indenting plugin.json: %v", got)
		}
		// The bytes changed, so the source is stale (an info), nothing more.
		for _, d := range ds {
			if d.Code != SnapshotStale.Code {
				t.Errorf("re-indenting plugin.json: %s %s", d.Code, d.Message)
			}
		}
	})
}

// A lock written before text was pinned keeps working: one info says the
// text is not pinned yet, never a warning per tool.
func TestSnapshotWithoutTextHashes(t *testing.T) {
	dir := pinnedBooks(t)
	b, _ := os.ReadFile(filepath.Join(dir, lockfile.FileName))
	var lock map[string]any
	json.Unmarshal(b, &lock)
	for _, k := range []string{"functionTools", "nativeTools"} {
		for _, e := range lock[k].([]any) {
			delete(e.(map[string]any), "textHash")
			delete(e.(map[string]any), "text")
		}
	}
	out, _ := json.MarshalIndent(lock, "", "  ")
	os.WriteFile(filepath.Join(dir, lockfile.FileName), out, 0o644)
	editFile(t, dir, "plugin.json", `"Find a book by ISBN"`, `"Find a book by its ISBN"`)
	_, ds := checkDir(t, dir)
	got := codes(ds, SnapshotTextChanged.Code)
	if len(got) != 1 || got[0].Severity != checker.Info || got[0].File != lockfile.FileName {
		t.Fatalf("want one info on the lock, got %v", got)
	}
}
