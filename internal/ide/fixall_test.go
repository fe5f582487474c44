package ide

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

var words = strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango")

// fixAllPlugin writes a plugin whose page fetches n hosts and calls
// collections.put; caps is the manifest's "capabilities" member ("" for
// none).
func fixAllPlugin(t testing.TB, n int, caps string) string {
	t.Helper()
	dir := t.TempDir()
	var page strings.Builder
	page.WriteString("export default async function get(input: { id: string }) {\n")
	for i := range n {
		// hosts far apart: h1 next to a declared h0 would look like its typo
		w := words[i%len(words)]
		fmt.Fprintf(&page, "  await http.fetch(\"https://%s.%s-api.com/items/\" + input.id);\n", w, w)
	}
	page.WriteString("  await collections.put(\"seen\", input.id, { at: 1 });\n  return 1;\n}\n")
	manifest := `{
  "name": "many",
  "version": "1.0.0",
  "sdk": 1,
  "tools": [
    { "name": "get", "page": "code/get", "description": "Get", "inputJsonSchema": { "type": "object" } }
  ]` + caps + `
}
`
	for rel, text := range map[string]string{"plugin.json": manifest, "code/get.ts": page.String()} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checker checks the plugin in dir with plugin.json replaced, counting
// the checks.
type fixChecker struct {
	dir    string
	checks int
}

func (c *fixChecker) check(t testing.TB, manifest []byte) *View {
	t.Helper()
	c.checks++
	var o *checker.Overlay
	if manifest != nil {
		o = &checker.Overlay{Files: map[string][]byte{filepath.Join(c.dir, checker.ManifestName): manifest}}
	} else {
		o = &checker.Overlay{}
	}
	p, err := checker.Load(o, c.dir)
	if err != nil {
		t.Fatal(err)
	}
	return &View{Plugin: p, Diags: checker.Run(p, rules.All(), nil, nil)}
}

func (c *fixChecker) recheck(t testing.TB) Recheck {
	return func(m []byte) ([]checker.Diagnostic, error) { return c.check(t, m).Diags, nil }
}

// oneAtATime is how "add all missing capabilities" worked before: the
// first capability fix, a check, the next one; it returns the fixes
// applied, the manifest, and the checks made.
func oneAtATime(t testing.TB, dir, rel string) (int, string, int) {
	c := &fixChecker{dir: dir}
	vw := c.check(t, nil)
	mf, _ := vw.Plugin.ReadFile(checker.ManifestName)
	text, n := mf.Text, 0
	for round := 0; round < 64; round++ {
		var fix *checker.Fix
		for i := range vw.Diags {
			d := &vw.Diags[i]
			if fx := d.PreferredFix(); d.File == rel && IsCapabilityCode(d.Code) && fx != nil && manifestOnly(*fx) {
				fix = fx
				break
			}
		}
		if fix == nil {
			break
		}
		next, err := fixes.ApplyText(text, fix.Edits)
		if err != nil {
			t.Fatal(err)
		}
		text, n = next, n+1
		vw = c.check(t, text)
	}
	return n, string(text), c.checks
}

// TestAddAllCapabilitiesChecksOnce: the capability fixes of one check are
// merged, so a page with N missing hosts is fixed without checking again
// when the list exists, and with one more check when the fixes conflict
// (the list or the capabilities object is created by each of them). The
// result is the manifest that fixing one at a time gives.
func TestAddAllCapabilitiesChecksOnce(t *testing.T) {
	const n = 20 // at most len(words)
	for _, c := range []struct {
		name, caps string
		rechecks   int // checks after the first
	}{
		{"lists exist", `,
  "capabilities": {
    "host": ["http.fetch"],
    "fetch": ["api.example.org"]
  }`, 0},
		{"lists exist, one line", `,
  "capabilities": { "host": ["http.fetch"], "fetch": ["api.example.org"] }`, 0},
		{"empty fetch list", `,
  "capabilities": { "host": ["http.fetch"], "fetch": [] }`, 1},
		{"no fetch list", `,
  "capabilities": { "host": ["http.fetch"] }`, 1},
		{"no capabilities", ``, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := fixAllPlugin(t, n, c.caps)
			ck := &fixChecker{dir: dir}
			vw := ck.check(t, nil)
			got, text := vw.AddAllCapabilities("code/get.ts", ck.recheck(t))
			wantN, wantText, before := oneAtATime(t, dir, "code/get.ts")
			wantFixes := n
			wantFixes++ // collections.put is missing everywhere
			if !strings.Contains(c.caps, "http.fetch") {
				wantFixes++
			}
			if got != wantFixes || wantN != wantFixes {
				t.Errorf("applied %d fixes (one at a time: %d), want %d", got, wantN, wantFixes)
			}
			if string(text) != wantText {
				t.Errorf("merged:\n%s\none at a time:\n%s", text, wantText)
			}
			if ck.checks-1 != c.rechecks {
				t.Errorf("%d checks after the first, want %d (one at a time: %d)", ck.checks-1, c.rechecks, before-1)
			}
			after := ck.check(t, text)
			for _, d := range after.Diags {
				if d.File == "code/get.ts" && IsCapabilityCode(d.Code) {
					t.Errorf("still missing: %s", d.Message)
				}
			}
			t.Logf("%s: %d fixes, checks after the first: merged %d, one at a time %d", c.name, got, ck.checks-2, before-1)
		})
	}
}
