package review_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

// The Markdown card says what the text card (the CLI's) says, line for
// line and section for section, for the example plugin and for plugins
// with drift, unbound pages, native tools, untrusted native tools and
// hostile strings: every line of one is the line of the other, in order,
// once the Markdown is read back (its marks dropped, its escapes undone),
// and nothing the plugin wrote became a mark.
func TestMarkdownCardEqualsTextCard(t *testing.T) {
	for name, dir := range map[string]string{
		"example":         copyDir(t, "../../../testdata/example/books"),
		"drift":           drifted(t),
		"unbound pages":   unbound(t),
		"untrusted":       untrustedNative(t),
		"hostile strings": hostile(t, "[click](command:plugin.pin?{\"confirm\":true})"),
		"hostile heading": hostile(t, "# forged heading"),
		"hostile list":    hostile(t, "+ fake change"),
		"hostile list 2":  hostile(t, "- fake change"),
		"hostile ordered": hostile(t, "12) fake"),
		"hostile quote":   hostile(t, "> quote"),
		"hostile code":    hostile(t, "     indented code"),
		"hostile setext":  hostile(t, "==="),
		"hostile html":    hostile(t, "<script>alert(1)</script>"),
		"broken manifest": writePlugin(t, map[string]string{"plugin.json": `{"name":"half","version":"1.0.0","nativeTools":[{"module":"m.js","names":["a.b",`}),
	} {
		t.Run(name, func(t *testing.T) {
			c := card(t, dir)
			text, md := c.Text(), c.Markdown()
			want := textLines(text)
			got, err := readMarkdown(md)
			if err != nil {
				t.Fatalf("%v\nMarkdown:\n%s", err, md)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("the Markdown card does not say what the text card says.\ntext:\n%s\nmarkdown read back:\n%s\nmarkdown:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"), md)
			}
			// Section by section too: the view shows them apart.
			secs := c.Sections()
			if len(secs) < 3 {
				t.Fatalf("%d sections", len(secs))
			}
			var joined []string
			for _, s := range secs {
				sm, err := readMarkdown(s.Markdown)
				if err != nil {
					t.Fatalf("section %s: %v", s.Name, err)
				}
				if strings.Join(sm, "\n") != strings.Join(textLines(s.Text), "\n") {
					t.Errorf("section %s:\ntext:\n%s\nmarkdown:\n%s", s.Name, s.Text, s.Markdown)
				}
				joined = append(joined, s.Markdown)
			}
			if strings.Join(joined, "\n") != md {
				t.Error("the sections are not the card")
			}
		})
	}
}

// What each case must show, so that a card that lost a section fails.
func TestMarkdownCardShowsEverySection(t *testing.T) {
	checks := map[string]struct {
		dir  string
		want []string
	}{
		"example": {copyDir(t, "../../../testdata/example/books"), []string{
			"## Native tools (full trust, 2)\n", "  - requires: secrets.read, network.socket\n", "  - needsApproval: always\n",
			"  - module hash: `sha256:", "## No pinned snapshot (plugin.lock.json): everything on this card is new. Pin it with plugin-lsp pin.\n",
			"- fn.lookupBook  (code/lookup-book.ts): Find a book by ISBN\n"}},
		"drift":     {drifted(t), []string{"## Since the pinned snapshot (`sha256:", "- \\+ evil.example.com (fetch, tools lookupBook, searchBooks, saveFavourite)\n", "- files: \\~ plugin.json"}},
		"unbound":   {unbound(t), []string{"## Pages no tool binds (1): run alone, each keeps the minimal grant (no host method, no network)\n", "- code/helper.ts\n"}},
		"untrusted": {untrustedNative(t), []string{"  - **DECLARED TOOLS CANNOT BE TRUSTED: the module may change", "    - m.js:3: needsApproval: \\`send.needsApproval", "  - needsApproval: unknown\n"}},
	}
	for name, c := range checks {
		md := card(t, c.dir).Markdown()
		for _, w := range c.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: the Markdown card lacks %q:\n%s", name, w, md)
			}
		}
	}
}

// textLines are the non-blank lines of the text card, read as a person
// does: spaces collapsed, a heading's colon dropped.
func textLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = norm(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func norm(l string) string {
	return strings.TrimSuffix(strings.Join(strings.Fields(l), " "), ":")
}

var (
	listItem  = regexp.MustCompile(`^((?:  )*)- (.*)$`)
	hashSpan  = regexp.MustCompile("`(sha256:[0-9a-f]+)`")
	escaped   = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)
	blockMark = regexp.MustCompile(`^(#|\+ |- |> |=|[0-9]+[.)]|    )`)
)

// readMarkdown reads the card's Markdown back to its lines of text, and
// fails on anything the card's writer does not write: a mark that is
// not escaped in a line's text (a heading, list, quote, link, code, HTML
// or entity the plugin would have made).
func readMarkdown(md string) ([]string, error) {
	var out []string
	for i, l := range strings.Split(md, "\n") {
		if l == "" {
			continue
		}
		body := l
		switch {
		case strings.HasPrefix(l, "# "), strings.HasPrefix(l, "## "):
			body = l[strings.IndexByte(l, ' ')+1:]
		case strings.HasPrefix(l, "> **") && strings.HasSuffix(l, "**"):
			body = l[4 : len(l)-2]
		default:
			if m := listItem.FindStringSubmatch(l); m != nil {
				body = m[2]
				if strings.HasPrefix(body, "**") && strings.HasSuffix(body, "**") && len(body) > 4 {
					body = body[2 : len(body)-2]
				}
			}
		}
		if blockMark.MatchString(body) {
			return nil, errorf("line %d opens a block in its text: %q", i+1, l)
		}
		body = hashSpan.ReplaceAllString(body, "$1")
		// What is left must hold no mark that is not escaped.
		bare := escaped.ReplaceAllString(body, "")
		bare = strings.NewReplacer("&lt;", "", "&amp;", "", "&#32;", "").Replace(bare)
		if strings.ContainsAny(bare, "*_`[]<&|~\\") {
			return nil, errorf("line %d holds a mark that is not escaped: %q", i+1, l)
		}
		body = escaped.ReplaceAllString(body, "$1")
		body = strings.NewReplacer("&lt;", "<", "&amp;", "&", "&#32;", " ").Replace(body)
		out = append(out, norm(body))
	}
	return out, nil
}

type mdError string

func (e mdError) Error() string { return string(e) }

func errorf(format string, args ...any) error {
	return mdError(fmt.Sprintf(format, args...))
}

func card(t *testing.T, dir string) *review.Card {
	t.Helper()
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := review.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	review.AnnotateCard(c, p)
	return c
}

func writePlugin(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// drifted is the example pinned, then widened by a fetch domain.
func drifted(t *testing.T) string {
	dir := copyDir(t, "../../../testdata/example/books")
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockfile.Pin(p, "plugin-lsp test"); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(dir, "plugin.json")
	b, _ := os.ReadFile(mp)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	caps := m["capabilities"].(map[string]any)
	caps["fetch"] = append(caps["fetch"].([]any), "evil.example.com")
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(mp, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func unbound(t *testing.T) string {
	return writePlugin(t, map[string]string{
		"plugin.json":    `{"name":"u","version":"1.0.0","tools":[{"name":"t","page":"code/t.ts","description":"T"}]}`,
		"code/t.ts":      "export default () => 1;\n",
		"code/helper.ts": "export default () => 2;\n",
	})
}

func untrustedNative(t *testing.T) string {
	return writePlugin(t, map[string]string{
		"plugin.json": `{"name":"n","version":"1.0.0","nativeTools":[{"module":"m.js","names":["a.send","a.read"]}]}`,
		"m.js": "const send = { description: \"Send\", requires: [\"network.socket\"], needsApproval: true, execute() {} };\n" +
			"export const tools = { \"a.send\": send, \"a.read\": { description: \"Read\", needsApproval: false, execute() {} } };\n" +
			"send.needsApproval = \"x\" && false;\n",
	})
}

// hostile writes every Markdown mark where a plugin's text lands.
func hostile(t *testing.T, desc string) string {
	evil := []string{"# forged heading", "+ fake change", "- another", "1. one", "> quote", "=== rule", "    code",
		"[click](command:plugin.pin?{\"confirm\":true})", "<img src=x onerror=alert(1)>", "`tick` **bold** _em_ ~~del~~ | pipe",
		"&#x202E; entity", "back\\slash", "\u202eoverride", "line\nbreak"}
	m := map[string]any{
		"name": evil[0], "version": evil[1], "description": desc,
		"tools": []any{
			map[string]any{"name": "t1", "page": "code/t1.ts", "description": evil[2]},
			map[string]any{"name": "t2", "page": "code/t2.ts", "description": evil[3] + evil[8]},
		},
		"nativeTools": []any{map[string]any{"module": "m.js", "names": []any{"x.y"}}},
		"capabilities": map[string]any{"host": []any{"http.fetch"}, "fetch": []any{"api.example.com"},
			"credentials": []any{map[string]any{"name": "k", "into": map[string]any{"header": "X-Key"}, "domains": []any{"api.example.com"}}}},
	}
	raw, _ := json.Marshal(m)
	mod := "export const tools = { \"x.y\": { description: " + jsString(strings.Join(evil[4:], " ")) + ", requires: [" + jsString(evil[9]) + "], needsApproval: true, execute() {} } };\n"
	return writePlugin(t, map[string]string{
		"plugin.json": string(raw), "code/t1.ts": "export default () => 1;\n", "code/t2.ts": "export default () => 1;\n",
		"m.js": mod, "code/# not bound.ts": "export default () => 1;\n",
	})
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
