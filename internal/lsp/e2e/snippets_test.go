package e2e

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The snippets of docs/editors.md are loaded verbatim: each fenced block
// follows a line "<!-- snippet: NAME -->", and a test asks for it by NAME
// (snippet) and writes it, unchanged, to the editor's init file.

// loadedBy names the test that loads each snippet into an editor.
var loadedBy = map[string]string{
	"nvim-0.7":  "TestNeovimClient",
	"nvim-0.11": "TestNeovim011Client",
	"emacs":     "TestEmacsEglotClient",
}

// notRunHere are the snippets of editors these tests do not drive, and
// why; docs/docs_test.go still parses them.
var notRunHere = map[string]string{
	"install": "a shell command (go install), not an editor's configuration",
	"helix":   "Helix is not one of the e2e clients (its capabilities are replayed by internal/lsp/profile_test.go)",
	"sublime": "Sublime Text is not one of the e2e clients",
	"zed":     "a Zed task running plugin-lsp check, not a language-server configuration",
}

// docSnippet is one marked fenced block of docs/editors.md.
type docSnippet struct {
	name, lang, text string
	line             int // of the opening fence
}

var markerRE = regexp.MustCompile(`^<!-- snippet: ([a-z0-9.-]+) -->$`)

// parseSnippets reads the marked blocks of a Markdown text. Every fenced
// block must follow a marker line, every marker must be followed by a
// block, and a name is used once.
func parseSnippets(text string) (map[string]docSnippet, error) {
	out := map[string]docSnippet{}
	var errs []string
	var cur *docSnippet
	var body strings.Builder
	pending, pendingLine := "", 0
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if cur != nil {
			if strings.TrimSpace(line) == "```" {
				cur.text = body.String()
				out[cur.name] = *cur
				cur = nil
				continue
			}
			body.WriteString(line + "\n")
			continue
		}
		if m := markerRE.FindStringSubmatch(line); m != nil {
			if pending != "" {
				errs = append(errs, fmt.Sprintf("line %d: marker %q is not followed by a fenced block", pendingLine, pending))
			}
			pending, pendingLine = m[1], n
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			lang := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```"))
			switch {
			case pending == "":
				errs = append(errs, fmt.Sprintf("line %d: a ```%s block with no <!-- snippet: NAME --> line before it", n, lang))
				pending = fmt.Sprintf("unnamed@%d", n)
			case pendingLine != n-1:
				errs = append(errs, fmt.Sprintf("line %d: marker %q is not on the line right before the block", pendingLine, pending))
			}
			if _, dup := out[pending]; dup {
				errs = append(errs, fmt.Sprintf("line %d: snippet name %q used twice", n, pending))
			}
			cur = &docSnippet{name: pending, lang: lang, line: n}
			body.Reset()
			pending = ""
			continue
		}
		if pending != "" && strings.TrimSpace(line) != "" {
			errs = append(errs, fmt.Sprintf("line %d: marker %q is not followed by a fenced block", pendingLine, pending))
			pending = ""
		}
	}
	if cur != nil {
		errs = append(errs, fmt.Sprintf("line %d: the ```%s block %q is not closed", cur.line, cur.lang, cur.name))
	}
	if pending != "" {
		errs = append(errs, fmt.Sprintf("line %d: marker %q is not followed by a fenced block", pendingLine, pending))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

func editorsDoc(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "editors.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func editorSnippets(t *testing.T) map[string]docSnippet {
	t.Helper()
	s, err := parseSnippets(editorsDoc(t))
	if err != nil {
		t.Fatalf("docs/editors.md:\n%v", err)
	}
	return s
}

// loaded records which snippets a test wrote to an editor's init file (or
// skipped, with why), for the check in TestMain.
var loaded sync.Map // name → outcome

// snippet returns the text of the docs/editors.md block NAME, exactly as
// written there, and records that the calling test loads it.
func snippet(t *testing.T, name string) docSnippet {
	t.Helper()
	if loadedBy[name] != t.Name() {
		t.Fatalf("%s loads snippet %q, which loadedBy gives to %q", t.Name(), name, loadedBy[name])
	}
	s, ok := editorSnippets(t)[name]
	if !ok {
		t.Fatalf("docs/editors.md has no block marked <!-- snippet: %s -->", name)
	}
	loaded.Store(name, "loaded by "+t.Name())
	return s
}

// skipSnippet records that the test could not load snippet NAME here, and
// skips it with why.
func skipSnippet(t *testing.T, name, why string) {
	t.Helper()
	loaded.Store(name, "skipped by "+t.Name()+": "+why)
	t.Skip(why)
}

// TestEverySnippetHasATest: each marked block of docs/editors.md is either
// loaded by an editor test (loadedBy) or listed, with why, in notRunHere;
// a new snippet without a test fails here.
func TestEverySnippetHasATest(t *testing.T) {
	snips := editorSnippets(t)
	if len(snips) == 0 {
		t.Fatal("docs/editors.md has no marked snippet")
	}
	for name, s := range snips {
		_, e2e := loadedBy[name]
		_, other := notRunHere[name]
		switch {
		case e2e && other:
			t.Errorf("snippet %q is both loaded by %s and listed as not run here", name, loadedBy[name])
		case !e2e && !other:
			t.Errorf("docs/editors.md:%d: snippet %q (```%s) is loaded by no test: add it to loadedBy with the test that pastes it into its editor, or to notRunHere with why", s.line, name, s.lang)
		}
	}
	for _, m := range []map[string]string{loadedBy, notRunHere} {
		for name := range m {
			if _, ok := snips[name]; !ok {
				t.Errorf("snippet %q is listed here but docs/editors.md has no block marked with it", name)
			}
		}
	}
}

// TestSnippetMarkers: the parser finds unmarked blocks, stray markers and
// duplicate names (so TestEverySnippetHasATest cannot pass by missing one).
func TestSnippetMarkers(t *testing.T) {
	good := "text\n<!-- snippet: a -->\n```lua\nx = 1\n```\n\n<!-- snippet: b -->\n```elisp\n(setq y 2)\n```\n"
	s, err := parseSnippets(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || s["a"].text != "x = 1\n" || s["b"].lang != "elisp" || s["b"].line != 8 {
		t.Errorf("parsed %+v", s)
	}
	for _, bad := range []string{
		"```lua\nx = 1\n```\n",                                                       // no marker
		"<!-- snippet: a -->\ntext\n```lua\nx\n```\n",                                // marker not before the block
		"<!-- snippet: a -->\n\n```lua\nx\n```\n",                                    // a blank line between
		"<!-- snippet: a -->\n```lua\nx\n```\n<!-- snippet: a -->\n```lua\ny\n```\n", // twice
		"<!-- snippet: a -->\n",                                                      // no block
		"<!-- snippet: a -->\n```lua\nx\n",                                           // not closed
	} {
		if _, err := parseSnippets(bad); err == nil {
			t.Errorf("no error for:\n%s", bad)
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	// With every test selected, each snippet of loadedBy must have been
	// loaded (or skipped with a reason) by its test.
	filtered := flag.Lookup("test.run").Value.String() != "" || flag.Lookup("test.skip").Value.String() != ""
	if code == 0 && !filtered {
		var names []string
		for name := range loadedBy {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			v, ok := loaded.Load(name)
			if !ok {
				fmt.Fprintf(os.Stderr, "FAIL: snippet %q of docs/editors.md was not loaded by %s\n", name, loadedBy[name])
				code = 1
				continue
			}
			fmt.Fprintf(os.Stderr, "snippet %s: %s\n", name, v)
		}
	}
	os.Exit(code)
}
