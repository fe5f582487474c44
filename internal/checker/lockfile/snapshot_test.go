package lockfile_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

var update = flag.Bool("update", false, "rewrite the golden snapshot")

// The snapshot of the example plugin, byte for byte: key order, list
// order, normalized hosts, effective caps, credential scopes, native
// tools with module hash, requires and needsApproval.
func TestGoldenExample(t *testing.T) {
	p, err := checker.Load(nil, filepath.Join("..", "..", "..", "testdata", "example", "books"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lockfile.Build(p, "plugin-lsp test")
	if err != nil {
		t.Fatal(err)
	}
	got := l.Marshal()
	golden := filepath.Join("testdata", "books.plugin.lock.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("snapshot differs from %s (run with -update after checking):\n%s", golden, got)
	}
	back, err := lockfile.Parse(got)
	if err != nil {
		t.Fatalf("the schema refuses what Build writes: %v", err)
	}
	if string(back.Marshal()) != string(got) {
		t.Error("Parse∘Marshal is not the identity")
	}
	if strings.Contains(string(got), "dev-ol-") {
		t.Error("a dev secret value in the snapshot")
	}
	if d := lockfile.Diff(back, l); len(d) != 0 {
		t.Errorf("diff with itself: %+v", d)
	}
}

func TestParseRefuses(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "books.plugin.lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"not JSON":        `{"lockVersion": 1,`,
		"missing keys":    `{"lockVersion": 1, "writtenBy": "plugin-lsp 0.1.0"}`,
		"unknown key":     strings.Replace(string(good), `"lockVersion": 1,`, `"lockVersion": 1, "secrets": {"k": "v"},`, 1),
		"future version":  strings.Replace(string(good), `"lockVersion": 1,`, `"lockVersion": 2,`, 1),
		"cap over limit":  strings.Replace(string(good), `"fetchMaxBytes": 4194304`, `"fetchMaxBytes": 99999999`, 1),
		"bad hash":        strings.Replace(string(good), `"sourceTreeHash": "sha256:`, `"sourceTreeHash": "md5:`, 1),
		"bad approval":    strings.Replace(string(good), `"needsApproval": "never"`, `"needsApproval": false`, 1),
		"credential kind": strings.Replace(string(good), `"sentTo": [`, `"sentTo": "everywhere", "x": [`, 1),
	} {
		if _, err := lockfile.Parse([]byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		} else if name != "not JSON" && !strings.Contains(err.Error(), "/") {
			t.Errorf("%s: error without a place: %v", name, err)
		}
	}
}

func TestDiffLines(t *testing.T) {
	pinned := &lockfile.Lock{
		FunctionTools: []lockfile.FunctionTool{
			{Name: "a", Host: []string{"http.fetch"}, Fetch: []lockfile.Fetch{{Domain: "x.org", MaxBytes: 10, TimeoutMs: 5}},
				Credentials: []lockfile.Credential{{Name: "k", Header: "X-Key", SentTo: []string{"x.org"}}}},
			{Name: "gone"},
		},
		NativeTools: []lockfile.NativeTool{{Name: "n.run", Module: "native/n.js", NeedsApproval: "always", Requires: []string{"secrets.read"}}},
	}
	cur := &lockfile.Lock{
		FunctionTools: []lockfile.FunctionTool{
			{Name: "a", Host: []string{"http.fetch", "collections.put"}, Fetch: []lockfile.Fetch{{Domain: "x.org", MaxBytes: 20, TimeoutMs: 5}, {Domain: "y.org", MaxBytes: 1, TimeoutMs: 1}},
				Credentials: []lockfile.Credential{{Name: "k", Header: "X-Key", SentTo: []string{"x.org", "y.org"}}}},
			{Name: "b"},
		},
		NativeTools: []lockfile.NativeTool{{Name: "n.run", Module: "native/n.js", NeedsApproval: "conditional"}},
	}
	var lines []string
	for _, c := range lockfile.Diff(pinned, cur) {
		lines = append(lines, c.Line())
	}
	want := []string{
		"+ collections.put (host, tool a)",
		"+ fetchMaxBytes 20 of x.org (was 10), tool a",
		"+ y.org (fetch, tool a)",
		"+ y.org (credential scope of k, tool a)",
		"+ fn.b (function tool)",
		"+ needsApproval conditional (was always, tool n.run)",
		"- fn.gone (function tool)",
		"- secrets.read (requires, tool n.run)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestParseRefusesDuplicateKeys: a lock that says two things (a narrow
// functionTools followed by a wide one, a host list written twice, a
// duplicate deep in a credential) is refused with both positions, instead
// of the last key winning.
func TestParseRefusesDuplicateKeys(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "books.plugin.lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ text, key string }{
		"narrow then wide functionTools": {strings.Replace(string(good), `"functionTools": [`, `"functionTools": [], "functionTools": [`, 1), "functionTools"},
		"wide then narrow functionTools": {strings.Replace(string(good), `"nativeTools": [`, `"functionTools": [], "nativeTools": [`, 1), "functionTools"},
		"host twice":                     {strings.Replace(string(good), `"host": [`, `"host": [], "host": [`, 1), "host"},
		"escaped twin":                   {strings.Replace(string(good), `"lockVersion": 1,`, `"lockVersion": 1, "lock\u0056ersion": 1,`, 1), "lockVersion"},
	} {
		if c.text == string(good) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		l, err := lockfile.Parse([]byte(c.text))
		var de *jsonpos.DuplicateKeyError
		if l != nil || !errors.As(err, &de) || de.Key != c.key {
			t.Errorf("%s: got %v, %v; want a duplicate-key error on %q", name, l, err, c.key)
			continue
		}
		if de.First.Start >= de.Dup.Start || !strings.Contains(err.Error(), fmt.Sprintf("first written at %d:%d, again at %d:%d", de.FirstLine, de.FirstCol, de.DupLine, de.DupCol)) {
			t.Errorf("%s: positions %+v in %v", name, de, err)
		}
		if got := c.text[de.Dup.Start:de.Dup.End]; !strings.HasPrefix(got, `"`) {
			t.Errorf("%s: the duplicate's span holds %q", name, got)
		}
	}
}

// TestPinRefusesDuplicateKeys: pin does not write a snapshot of a manifest
// that says two things.
func TestPinRefusesDuplicateKeys(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"name": "dup", "version": "1.0.0", "version": "2.0.0"}`
	if err := os.WriteFile(filepath.Join(dir, checker.ManifestName), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockfile.Pin(p, "test"); err == nil || !strings.Contains(err.Error(), `plugin.json:1:37: duplicate key "version": first written at 1:17, again at 1:37`) {
		t.Fatalf("Pin: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, lockfile.FileName)); !os.IsNotExist(err) {
		t.Errorf("a snapshot was written: %v", err)
	}
}
