package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

func TestReviewExample(t *testing.T) {
	hash, err := lockfile.TreeHash(exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "review", exampleDir)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	for _, want := range []string{
		"Plugin books 1.2.0\n",
		"Source-tree hash: sha256:" + hash + "\n",
		"  fn.lookupBook  (code/lookup-book.ts): Find a book by ISBN\n",
		"    host methods: http.fetch, collections.get, collections.put\n",
		"    fetch: https://covers.openlibrary.org (max 4194304 bytes, 5000 ms)\n",
		"    credential: openlibrary_key into header Authorization, sent to api.openlibrary.org\n",
		"  native tool tg.sendMessage (native/telegram.js) in the full-trust lane\n",
		"  native tool tg.readChat (native/telegram.js) in the full-trust lane\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("card lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, "review", "--format", "json", exampleDir)
	var card review.Card
	if err := json.Unmarshal([]byte(out), &card); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if card.Hash != "sha256:"+hash || len(card.FunctionTools) != 3 || len(card.NativeTools) != 2 || len(card.Problems) != 0 {
		t.Errorf("json card: %+v", card)
	}
}

func TestReviewErrors(t *testing.T) {
	// A symlink in the tree: the hash is refused, naming the link.
	code, _, errs := run(t, "review", filepath.Join(pluginsDir, "manifest-native-outside"))
	if code != 1 || !strings.Contains(errs, "native/link.js is a symlink") {
		t.Errorf("symlink: exit %d, stderr %q", code, errs)
	}
	// Errors found by the checker are listed on the card; exit 1.
	code, out, _ := run(t, "review", filepath.Join(pluginsDir, "manifest-sdk-missing"))
	if code != 1 || !strings.Contains(out, `WARNING: plugin.json:4:3: nativeTools needs "sdk": 1`) ||
		!strings.Contains(out, "native tool zulip.post (native/zulip.js) in the full-trust lane") {
		t.Errorf("sdk missing: exit %d\n%s", code, out)
	}
	// A truncated manifest still gives a card, with the syntax error on it.
	code, out, _ = run(t, "review", filepath.Join(pluginsDir, "manifest-truncated-eof"))
	if code != 1 || !strings.Contains(out, "Plugin books 1.2.0") || !strings.Contains(out, "fn.lookupBook") ||
		!strings.Contains(out, "WARNING: plugin.json:5:56: unexpected end of JSON") {
		t.Errorf("truncated: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"review"},
		{"review", exampleDir, exampleDir},
		{"review", "--format", "sarif", exampleDir},
		{"review", t.TempDir()},
	} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// Flags after the directory.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"x","version":"1.0.0","nativeTools":[{"module":"m.js","names":["my.tool"]}],"sdk":1}`), 0o644)
	os.WriteFile(filepath.Join(dir, "m.js"), []byte(`export const tools = { "my.tool": { description: "d", async execute() {} } };`), 0o644)
	b := filepath.Join(t.TempDir(), "b.json")
	os.WriteFile(b, []byte(`["my.tool"]`), 0o644)
	code, out, _ = run(t, "review", dir, "--builtins", b)
	if code != 1 || !strings.Contains(out, `native tool "my.tool" has the name of a built-in tool`) {
		t.Errorf("builtins: exit %d\n%s", code, out)
	}
}
