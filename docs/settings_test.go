package docs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The settings are documented once: in docs/extension.md, generated from
// extension/package.json by extension/scripts/settings.mjs (whose own
// test, extension/test/settings.test.ts, fails when it is stale). No other
// page holds a table row for a setting.
func TestSettingsDocumentedOnce(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "extension", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	props := pkg.Contributes.Configuration.Properties
	if len(props) < 3 {
		t.Fatalf("package.json lists %d settings: the reader is broken", len(props))
	}
	rows := map[string]bool{} // the first cell of a settings row
	for name := range props {
		rows["`"+name+"`"] = true
		rows["`"+strings.TrimPrefix(name, "pluginLsp.")+"`"] = true
	}
	home := filepath.Join(root, "docs", "extension.md")
	found := 0
	for _, f := range markdownFiles(t, root) {
		text, _ := os.ReadFile(f)
		for n, line := range strings.Split(string(text), "\n") {
			if !strings.HasPrefix(line, "|") {
				continue
			}
			cells := strings.Split(line, "|")
			if len(cells) < 3 || !rows[strings.TrimSpace(cells[1])] {
				continue
			}
			if f == home {
				found++
				continue
			}
			rel, _ := filepath.Rel(root, f)
			t.Errorf("%s:%d documents setting %s again; link to docs/extension.md#settings instead", rel, n+1, strings.TrimSpace(cells[1]))
		}
	}
	if found != len(props) {
		t.Errorf("docs/extension.md has %d settings rows, package.json %d settings", found, len(props))
	}
}
