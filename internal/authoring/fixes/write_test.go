//go:build unix

package fixes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteIsWholeOrNothing: a fix with a file the writer refuses (under
// a symlinked code/) is moved to Refused with the refusal, and so is a fix
// sharing a file with it; neither's files are written, the unrelated fix
// is, and nothing outside changes.
func TestWriteIsWholeOrNothing(t *testing.T) {
	root := t.TempDir()
	dir, outside := filepath.Join(root, "p"), filepath.Join(root, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "code")); err != nil {
		t.Fatal(err)
	}
	res := &Result{
		Applied: []Change{
			{Code: "a", Title: "Create code/a.ts", Files: []string{"code/a.ts"}},
			{Code: "b", Title: "edits plugin.json and code/a.ts", Files: []string{"code/a.ts", "plugin.json"}},
			{Code: "c", Title: "edits plugin.json", Files: []string{"plugin.json"}},
			{Code: "d", Title: "edits other.json", Files: []string{"other.json"}},
		},
		Before: map[string][]byte{"code/a.ts": nil, "plugin.json": []byte("{}"), "other.json": []byte("{}")},
		After:  map[string][]byte{"code/a.ts": []byte("x"), "plugin.json": []byte(`{"x":1}`), "other.json": []byte(`{"y":1}`)},
	}
	if err := Write(dir, res); err != nil {
		t.Fatal(err)
	}
	var applied, refused []string
	for _, c := range res.Applied {
		applied = append(applied, c.Code)
	}
	for _, c := range res.Refused {
		refused = append(refused, c.Code)
		if !c.Unwritable || !strings.Contains(c.Why, "refused") && !strings.Contains(c.Why, "shares a file with a refused fix") {
			t.Errorf("%s: Why %q", c.Code, c.Why)
		}
	}
	if strings.Join(applied, ",") != "d" || strings.Join(refused, ",") != "a,b,c" {
		t.Errorf("applied %v, refused %v; want [d], [a b c]", applied, refused)
	}
	if !strings.Contains(res.Refused[0].Why, "code/a.ts: refused: code is a symlink") {
		t.Errorf("why: %q", res.Refused[0].Why)
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Errorf("written outside: %v", es)
	}
	if _, err := os.Lstat(filepath.Join(dir, "plugin.json")); err == nil {
		t.Error("plugin.json was written although its fixes were refused")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "other.json")); err != nil || string(b) != `{"y":1}` {
		t.Errorf("other.json: %q %v", b, err)
	}
	if _, ok := res.After["plugin.json"]; ok || len(res.After) != 1 {
		t.Errorf("After keeps unwritten files: %v", res.After)
	}
}
