// Package scaffold is `plugin-lsp init`: it creates a plugin that checks
// clean, runs against its fixtures, is typed and has a passing test, and
// adds tools to an existing plugin the same way. It never overwrites a
// file: what exists is kept, and running it twice changes nothing.
package scaffold

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// DefaultTool is the tool a new plugin gets without --tool.
const DefaultTool = "greet"

// DemoDomain is the API the template pages call (answered by fixtures).
const DemoDomain = "api.example.com"

var toolName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Change is one thing Init did or left alone.
type Change struct {
	Path   string // plugin-relative
	Action string // "created", "updated", "kept"
	Note   string
}

func (c Change) String() string {
	s := fmt.Sprintf("%-8s %s", c.Action, c.Path)
	if c.Note != "" {
		s += " (" + c.Note + ")"
	}
	return s
}

// Init creates a plugin in dir (when it has no plugin.json) with one tool,
// or adds the tool to the plugin there: manifest entry, page, fixture,
// test file, then .plugin/types.d.ts (and tsconfig.json when absent).
func Init(dir, tool string) ([]Change, error) {
	if tool == "" {
		tool = DefaultTool
	}
	if !toolName.MatchString(tool) {
		return nil, fmt.Errorf("tool name %q is not an identifier (letters, digits and '_', not starting with a digit), like \"lookupBook\"", tool)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var changes []Change
	files := newToolFiles(abs, tool)
	page := "code/" + files.base
	manifest := filepath.Join(abs, checker.ManifestName)
	if _, err := os.Lstat(manifest); errors.Is(err, fs.ErrNotExist) {
		if err := create(abs, checker.ManifestName, newManifest(pluginName(abs), files.entry(page))); err != nil {
			return nil, err
		}
		changes = append(changes, Change{Path: checker.ManifestName, Action: "created"})
	} else {
		p, err := checker.Load(checker.OSFS{}, abs)
		if err != nil {
			return changes, err
		}
		if p.SyntaxError != nil || p.Manifest.Root == nil || p.Manifest.Root.Kind != jsonpos.Object {
			return changes, fmt.Errorf("%s does not parse: fix it first (plugin-lsp check %s)", manifest, dir)
		}
		c, err := addToManifest(p, tool, files.entry(page))
		if err != nil {
			return changes, err
		}
		changes = append(changes, c...)
	}
	p, err := checker.Load(checker.OSFS{}, abs)
	if err != nil {
		return changes, err
	}
	// The page the manifest names (an existing entry may name another).
	for _, t := range p.Manifest.Tools {
		if n, _ := checker.Str(t.Name); n == tool {
			if s, ok := checker.Str(t.Page); ok && s != "" {
				page = s
			}
			files.base = pageStem(page) // its test and fixture follow its page
		}
	}
	rel, found := p.ResolvePage(page)
	if found {
		changes = append(changes, Change{Path: rel, Action: "kept"})
	} else {
		if err := create(abs, rel, files.page()); err != nil {
			return changes, err
		}
		changes = append(changes, Change{Path: rel, Action: "created"})
	}

	c, err := addFixture(p, files)
	if err != nil {
		return changes, err
	}
	changes = append(changes, c...)

	testRel := "tests/" + files.base + ".json"
	if _, err := os.Lstat(p.Abs(testRel)); err == nil {
		changes = append(changes, Change{Path: testRel, Action: "kept"})
	} else {
		if err := create(abs, testRel, files.test()); err != nil {
			return changes, err
		}
		changes = append(changes, Change{Path: testRel, Action: "created"})
	}

	if p, err = checker.Load(checker.OSFS{}, abs); err != nil {
		return changes, err
	}
	return writeTypes(p, changes)
}

// create writes a new file (never over an existing one) through the one
// writer of plugin files: a path with "..", a symlinked directory on the
// way or anything already at rel is refused.
func create(dir, rel, text string) error {
	return checker.CreatePluginFile(dir, rel, []byte(text))
}

// pluginName makes a manifest name ([a-z0-9][a-z0-9-]*) of a directory name.
func pluginName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(dir)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "my-plugin"
	}
	return s
}

// kebabCase: lookupBook → lookup-book, HTTPGet2 → http-get2, get_v2 → get-v2.
func kebabCase(s string) string {
	var b strings.Builder
	lower := func(r byte) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
	upper := func(r byte) bool { return r >= 'A' && r <= 'Z' }
	for i := 0; i < len(s); i++ {
		r := s[i]
		switch {
		case upper(r):
			// A word starts at an upper-case letter after a lower-case one
			// or a digit, or at the last capital of an acronym (HTTPGet).
			if i > 0 && (lower(s[i-1]) || upper(s[i-1]) && i+1 < len(s) && lower(s[i+1]) && s[i+1] > '9') {
				b.WriteByte('-')
			}
			b.WriteByte(r - 'A' + 'a')
		case r == '_':
			b.WriteByte('-')
		default:
			b.WriteByte(r)
		}
	}
	out := b.String()
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	return strings.Trim(out, "-")
}

func newManifest(name, entry string) string {
	entry = strings.ReplaceAll(entry, "\n", "\n    ")
	return `{
  "name": ` + quote(name) + `,
  "version": "0.1.0",
  "tools": [
    ` + entry + `
  ],
  "capabilities": {
    "host": ["http.fetch"],
    "fetch": [` + quote(DemoDomain) + `]
  }
}
`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// addToManifest adds the tool's entry, "http.fetch" to capabilities.host and
// the demo domain to capabilities.fetch, each only when missing, applying
// one edit at a time (each re-parses the file).
func addToManifest(p *checker.Plugin, tool, entry string) ([]Change, error) {
	var notes []string
	type step struct {
		need  func(m *checker.Manifest) bool
		path  []string
		value string
		note  string
	}
	steps := []step{
		{func(m *checker.Manifest) bool { return !hasTool(m, tool) }, []string{"tools"}, entry, "tool " + tool},
		{func(m *checker.Manifest) bool { return !capability.FromManifest(m).HasHost("http.fetch") }, []string{"capabilities", "host"}, `"http.fetch"`, "http.fetch in capabilities.host"},
		{func(m *checker.Manifest) bool { return !contains(capability.FromManifest(m).Domains(), DemoDomain) }, []string{"capabilities", "fetch"}, quote(DemoDomain), DemoDomain + " in capabilities.fetch"},
	}
	text := p.ManifestFile.Text
	for _, s := range steps {
		f := checker.NewFile(checker.ManifestName, text)
		root, serr := jsonpos.Parse(text)
		if serr != nil {
			return nil, fmt.Errorf("plugin.json: %s", serr.Message)
		}
		if err := jsonpos.CheckDuplicates(text, root); err != nil {
			return nil, fmt.Errorf("plugin.json:%v", err) // which of the two would the tool go into?
		}
		if !s.need(checker.NewManifest(root)) {
			continue
		}
		e, err := jsonedit.AddToPath(f, root, s.path, s.value)
		if err != nil {
			return nil, fmt.Errorf("plugin.json: cannot add %s: %v", s.note, err)
		}
		text = apply(text, e)
		notes = append(notes, s.note)
	}
	if len(notes) == 0 {
		return []Change{{Path: checker.ManifestName, Action: "kept", Note: "tool " + tool + " already declared"}}, nil
	}
	if err := checker.WritePluginFile(p.Dir, checker.ManifestName, text); err != nil {
		return nil, err
	}
	return []Change{{Path: checker.ManifestName, Action: "updated", Note: "added " + strings.Join(notes, ", ")}}, nil
}

func hasTool(m *checker.Manifest, name string) bool {
	for _, t := range m.Tools {
		if s, _ := checker.Str(t.Name); s == name {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func apply(text []byte, e checker.Edit) []byte {
	out := append([]byte{}, text[:e.Span.Start]...)
	out = append(out, e.NewText...)
	return append(out, text[e.Span.End:]...)
}

// addFixture adds the fixture of the tool's example to fixtures.json
// (creating it), unless one answers its URL already.
func addFixture(p *checker.Plugin, t toolFiles) ([]Change, error) {
	u := t.url(t.example())
	entry := t.fixture()
	if p.FixturesFile == nil {
		text := "{\n  \"$schema\": \"" + tstypes.FixturesSchemaPath + "\",\n  \"fnFetch\": [\n    " + entry + "\n  ]\n}\n"
		if err := create(p.Dir, checker.FixturesName, text); err != nil {
			return nil, err
		}
		return []Change{{Path: checker.FixturesName, Action: "created"}}, nil
	}
	if p.FixturesError != nil {
		return nil, fmt.Errorf("fixtures.json does not parse: fix it first (plugin-lsp check %s)", p.Dir)
	}
	if f, err := fixtures.Parse(p.FixturesFile.Text); err == nil {
		for _, x := range f.FnFetch {
			if fixtures.SameURL(x.URL, u) {
				return []Change{{Path: checker.FixturesName, Action: "kept", Note: "a fixture answers " + u}}, nil
			}
		}
	}
	e, err := jsonedit.AddToPath(p.FixturesFile, p.FixturesRoot, []string{"fnFetch"}, entry)
	if err != nil {
		return nil, fmt.Errorf("fixtures.json: %v", err)
	}
	if err := checker.WritePluginFile(p.Dir, checker.FixturesName, apply(p.FixturesFile.Text, e)); err != nil {
		return nil, err
	}
	return []Change{{Path: checker.FixturesName, Action: "updated", Note: "added a fixture for " + u}}, nil
}

// Summary sorts changes for printing: created, updated, kept.
func Summary(cs []Change) []string {
	order := map[string]int{"created": 0, "updated": 1, "kept": 2}
	sort.SliceStable(cs, func(i, j int) bool { return order[cs[i].Action] < order[cs[j].Action] })
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// writeTypes writes the plugin's generated types (tstypes.WriteFiles) and
// adds each file written to changes, created or updated.
func writeTypes(p *checker.Plugin, changes []Change) ([]Change, error) {
	existed := map[string]bool{}
	for _, rel := range []string{tstypes.TypesPath, tstypes.NativePath, tstypes.TsconfigName} {
		_, err := os.Lstat(p.Abs(rel))
		existed[rel] = err == nil
	}
	wrote, err := tstypes.WriteFiles(p)
	for _, w := range wrote {
		action := "created"
		if existed[w] {
			action = "updated"
		}
		changes = append(changes, Change{Path: w, Action: action})
	}
	return changes, err
}
