package snapshot_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/snapshot"
)

var update = flag.Bool("update", false, "rewrite the golden snapshot")

// The snapshot of the example plugin, byte for byte: key order, list
// order, normalized hosts, effective caps, credential scopes, native
// tools with module hash, requires and needsApproval.
func TestGoldenExample(t *testing.T) {
	p, err := analysis.Load(nil, filepath.Join("..", "..", "testdata", "example", "books"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := snapshot.Build(p, "plugin-lsp test")
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
	back, err := snapshot.Parse(got)
	if err != nil {
		t.Fatalf("the schema refuses what Build writes: %v", err)
	}
	if string(back.Marshal()) != string(got) {
		t.Error("Parse∘Marshal is not the identity")
	}
	if strings.Contains(string(got), "dev-ol-") {
		t.Error("a dev secret value in the snapshot")
	}
	if d := snapshot.Diff(back, l); len(d) != 0 {
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
		if _, err := snapshot.Parse([]byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		} else if name != "not JSON" && !strings.Contains(err.Error(), "/") {
			t.Errorf("%s: error without a place: %v", name, err)
		}
	}
}

func TestDiffLines(t *testing.T) {
	pinned := &snapshot.Lock{
		FunctionTools: []snapshot.FunctionTool{
			{Name: "a", Host: []string{"http.fetch"}, Fetch: []snapshot.Fetch{{Domain: "x.org", MaxBytes: 10, TimeoutMs: 5}},
				Credentials: []snapshot.Credential{{Name: "k", Header: "X-Key", SentTo: []string{"x.org"}}}},
			{Name: "gone"},
		},
		NativeTools: []snapshot.NativeTool{{Name: "n.run", Module: "native/n.js", NeedsApproval: "always", Requires: []string{"secrets.read"}}},
	}
	cur := &snapshot.Lock{
		FunctionTools: []snapshot.FunctionTool{
			{Name: "a", Host: []string{"http.fetch", "collections.put"}, Fetch: []snapshot.Fetch{{Domain: "x.org", MaxBytes: 20, TimeoutMs: 5}, {Domain: "y.org", MaxBytes: 1, TimeoutMs: 1}},
				Credentials: []snapshot.Credential{{Name: "k", Header: "X-Key", SentTo: []string{"x.org", "y.org"}}}},
			{Name: "b"},
		},
		NativeTools: []snapshot.NativeTool{{Name: "n.run", Module: "native/n.js", NeedsApproval: "conditional"}},
	}
	var lines []string
	for _, c := range snapshot.Diff(pinned, cur) {
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
