//go:build unix

package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
)

// The server refreshes .plugin/types.d.ts after an edit; when that file is
// a symlink to a sibling plugin's generated types (which start with the
// same header), the sibling is not rewritten: the writer refuses the
// symlink and the server logs it.
func TestTypesRefreshNeverWritesThroughASymlink(t *testing.T) {
	dir := copyExample(t)
	sibling := filepath.Join(filepath.Dir(dir), "sibling")
	siblingTypes := filepath.Join(sibling, ".plugin", "types.d.ts")
	if err := os.MkdirAll(filepath.Dir(siblingTypes), 0o755); err != nil {
		t.Fatal(err)
	}
	planted := tstypes.Header + "// the sibling's own types\n"
	if err := os.WriteFile(siblingTypes, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	typesPath := filepath.Join(dir, ".plugin", "types.d.ts")
	os.Remove(typesPath)
	if err := os.Symlink(siblingTypes, typesPath); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	h.waitChecked(dir)
	text := strings.Replace(mustRead(t, manifest), `"properties": { "isbn": { "type": "string" } }`, `"properties": { "isbn": { "type": "string" }, "edition": { "type": "integer" } }`, 1)
	h.change(manifest, 2, text)
	h.waitChecked(dir)
	if got := mustRead(t, siblingTypes); got != planted {
		t.Errorf("the sibling's types were rewritten through the symlink:\n%.500s", got)
	}
	if fi, err := os.Lstat(typesPath); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
	// Generate types says why it does not write.
	arg, _ := json.Marshal(testArgs{Dir: dir})
	_, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandGenerateTypes, Arguments: []protocol.LSPAny{arg}})
	if err == nil || !strings.Contains(err.Error(), ".plugin/types.d.ts: refused: a symlink") {
		t.Errorf("generate types: %v, want the refusal", err)
	}
	if got := mustRead(t, siblingTypes); got != planted {
		t.Errorf("generate types wrote through the symlink")
	}
}

// runTests on a test file whose snapshot is a symlink to another plugin's
// fixtures.json: the answer says the snapshot cannot be read and never
// holds the other plugin's secret; accepting the result writes nothing
// through the symlink.
func TestRunTestsNeverReturnsALinkedSnapshot(t *testing.T) {
	const secret = "other-plugin-secret-91d3"
	dir := copyExample(t)
	other := filepath.Join(filepath.Dir(dir), "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	otherFixtures := filepath.Join(other, "fixtures.json")
	planted := `{"hobbit: titles, authors and cover status": {"secrets": {"k": "` + secret + `"}}}`
	if err := os.WriteFile(otherFixtures, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "tests", "__snapshots__", "search-books.snap.json")
	os.Remove(snap)
	if err := os.Symlink(otherFixtures, snap); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Options{Runner: searchRunner(500)})
	h.initialize(dir, protocol.ClientCapabilities{})
	file := filepath.Join(dir, "tests", "search-books.json")
	h.open(file)
	h.waitChecked(dir)
	arg, _ := json.Marshal(testArgs{URI: string(uri.File(file))})
	res, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandRunTests, Arguments: []protocol.LSPAny{arg}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res), secret) {
		t.Fatalf("runTests returned the other plugin's secret:\n%.2000s", res)
	}
	if !strings.Contains(string(res), "path leaves the plugin directory") {
		t.Errorf("runTests does not say the snapshot was refused:\n%.2000s", res)
	}
	arg, _ = json.Marshal(testArgs{URI: string(uri.File(file)), Name: "hobbit: titles, authors and cover status"})
	_, err = h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandAcceptSnapshot, Arguments: []protocol.LSPAny{arg}})
	if err == nil || !strings.Contains(err.Error(), "refused: a symlink") {
		t.Errorf("accept snapshot: %v, want the refusal", err)
	}
	if got := mustRead(t, otherFixtures); got != planted {
		t.Errorf("the other plugin's fixtures.json changed:\n%s", got)
	}
}
