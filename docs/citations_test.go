package docs

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A comment of the code cites only what is in the repository: never a
// design file or notes kept outside it, and every repository path it names
// (cmd/…, internal/…, docs/…, scripts/…, extension/…, testdata/…, a
// top-level *.md) exists. The Markdown is held to the same by
// TestNoCitationsOutsideTheRepository and TestRelativeLinksResolve.

// comment is one comment of a source file, with the line it starts on.
type comment struct {
	line int
	text string
}

// sourceFiles lists the files under root/dir whose name ends in one of
// exts, outside node_modules, testdata and hidden directories.
func sourceFiles(t *testing.T, root, dir string, exts ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "node_modules" || n == "testdata" || n == "out" || n == "dist" || strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) && !strings.HasSuffix(p, ".d.ts") {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// goComments returns the comments of a Go file, read by go/parser.
func goComments(t *testing.T, path string) []comment {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []comment
	for _, g := range f.Comments {
		for _, c := range g.List {
			out = append(out, comment{fset.Position(c.Pos()).Line, c.Text})
		}
	}
	return out
}

// jsComments returns the comments of a TypeScript or JavaScript text. It
// skips string and template literals and regular-expression literals (a
// slash where an operand is expected), which is enough for comments: a
// template's ${…} is skipped whole, with the comments inside it, if any.
func jsComments(src string) []comment {
	var out []comment
	line := 1
	prev := byte(0) // the last significant character outside comments
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			out = append(out, comment{line, src[i : i+j]})
			i += j - 1
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				j = len(src) - i - 2
			}
			text := src[i:min(len(src), i+4+j)]
			out = append(out, comment{line, text})
			line += strings.Count(text, "\n")
			i += 2 + j + 1
			continue
		case c == '"' || c == '\'' || c == '`':
			depth := 0
			for i++; i < len(src); i++ {
				d := src[i]
				if d == '\n' {
					line++
				}
				if d == '\\' {
					i++
					continue
				}
				if c == '`' && d == '$' && i+1 < len(src) && src[i+1] == '{' {
					depth++
					i++
					continue
				}
				if c == '`' && depth > 0 && d == '}' {
					depth--
					continue
				}
				if d == c && depth == 0 {
					break
				}
			}
		case c == '/' && (prev == 0 || strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prev) >= 0):
			class := false
			for i++; i < len(src) && src[i] != '\n'; i++ {
				d := src[i]
				if d == '\\' {
					i++
					continue
				}
				if d == '[' {
					class = true
				} else if d == ']' {
					class = false
				} else if d == '/' && !class {
					break
				}
			}
		}
		prev = c
		if i < len(src) {
			prev = src[i]
		}
	}
	return out
}

// repoPathRE matches a repository path in a comment: one of the top-level
// directories and what follows, or a top-level Markdown file. It must not
// continue a longer path or a URL (github.com/…/internal/x is an import
// path, not a citation).
var repoPathRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./@-])((?:cmd|internal|docs|scripts|extension|testdata)/[A-Za-z0-9_.\-/]*[A-Za-z0-9_\-/]|(?:README|CHANGELOG|LICENSE|THIRD_PARTY_NOTICES|DESIGN)(?:\.md)?\b)`)

// extRelRE matches a path an extension file names relative to extension/.
var extRelRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./@-])((?:src|test|e2e|scripts|tsserver-plugin)/[A-Za-z0-9_.\-/]*[A-Za-z0-9_\-/])`)

// citedPathExists reports whether a path a comment names is in the
// repository: relative to the root, to the citing file's directory or to
// any directory above it up to the root (a package cites its testdata,
// the extension its src/). A Go qualified name (internal/checker.Plugin)
// names its package's directory.
func citedPathExists(root, fromDir, p string) bool {
	p = strings.TrimSuffix(p, "/")
	if isBuildOutput(root, p) {
		return true
	}
	candidates := []string{p}
	if dir, base := filepath.Split(p); strings.Contains(base, ".") {
		name, _, _ := strings.Cut(base, ".")
		candidates = append(candidates, filepath.Join(dir, name))
	}
	for d := fromDir; ; d = filepath.Dir(d) {
		for _, c := range candidates {
			if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(c))); err == nil {
				return true
			}
		}
		if d == root || !strings.HasPrefix(d, root) {
			return false
		}
	}
}

// isBuildOutput reports whether p is in a directory the build writes and
// git ignores (a directory line of the root's or the extension's
// .gitignore): extension/vsix/…, extension/e2e/screenshots/….
func isBuildOutput(root, p string) bool {
	for _, gi := range []struct{ file, base string }{{".gitignore", ""}, {"extension/.gitignore", "extension/"}} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(gi.file)))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			l = strings.TrimSpace(l)
			if !strings.HasSuffix(l, "/") || strings.HasPrefix(l, "#") || strings.ContainsAny(l, "*!") {
				continue
			}
			dir := gi.base + strings.TrimPrefix(l, "/")
			if strings.HasPrefix(p+"/", dir) {
				return true
			}
		}
	}
	return false
}

// sectionRE matches a doc section a comment cites by name:
// docs/lsp.md, "Memory" or docs/host-api.md ("What is scrubbed").
var sectionRE = regexp.MustCompile(`(docs/[A-Za-z0-9_-]+\.md)[,:]? \(?"([^"]+)"`)

// hasSection reports whether the Markdown file has a heading that is, or
// begins with, name (case aside).
func hasSection(path, name string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && strings.HasPrefix(strings.ToLower(strings.TrimSpace(h)), strings.ToLower(name)) {
			return true
		}
	}
	return false
}

// badCitations returns what one comment cites that is not in the
// repository.
func badCitations(root, file, text string) []string {
	var bad []string
	for _, m := range sectionRE.FindAllStringSubmatch(text, -1) {
		if !hasSection(filepath.Join(root, filepath.FromSlash(m[1])), m[2]) {
			bad = append(bad, m[1]+` section "`+m[2]+`"`)
		}
	}
	for _, never := range []string{"DESIGN" + ".md", "notes" + "/"} {
		if strings.Contains(text, never) {
			bad = append(bad, never+" (not in the repository)")
		}
	}
	res := []*regexp.Regexp{repoPathRE}
	if rel, _ := filepath.Rel(root, file); strings.HasPrefix(rel, "extension"+string(filepath.Separator)) {
		res = append(res, extRelRE)
	}
	for _, re := range res {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			p := m[1]
			if strings.ContainsAny(p, "*<{") {
				continue
			}
			if p == "DESIGN" || p == "DESIGN.md" {
				continue // reported above
			}
			if !strings.Contains(p, "/") && !strings.HasSuffix(p, ".md") {
				continue // the word README, not a file
			}
			if !citedPathExists(root, filepath.Dir(file), p) {
				bad = append(bad, p)
			}
		}
	}
	return bad
}

func TestCommentsCiteOnlyTheRepository(t *testing.T) {
	root := repoRoot(t)
	var files []string
	for _, dir := range []string{"cmd", "internal", "scripts"} {
		files = append(files, sourceFiles(t, root, dir, ".go")...)
	}
	goFiles := len(files)
	files = append(files, sourceFiles(t, root, "extension", ".ts", ".mjs")...)
	if goFiles < 100 || len(files)-goFiles < 20 {
		t.Fatalf("found %d Go and %d TypeScript files: the walk is broken", goFiles, len(files)-goFiles)
	}
	checked := 0
	for _, f := range files {
		var cs []comment
		if strings.HasSuffix(f, ".go") {
			cs = goComments(t, f)
		} else {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cs = jsComments(string(data))
		}
		rel, _ := filepath.Rel(root, f)
		for _, c := range cs {
			checked++
			for _, b := range badCitations(root, f, c.text) {
				t.Errorf("%s:%d: comment cites %s, which is not in the repository", rel, c.line, b)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("read only %d comments: the comment reader is broken", checked)
	}
}

// The checker of citations catches what it is for, and passes what is
// there (so that TestCommentsCiteOnlyTheRepository can fail, and fails
// only on a real citation).
func TestBadCitationsCases(t *testing.T) {
	root := repoRoot(t)
	from := filepath.Join(root, "internal", "ide", "ide.go")
	ext := filepath.Join(root, "extension", "src", "extension.ts")
	for _, c := range []struct {
		file, text string
		bad        bool
	}{
		{from, "// see DESIGN" + ".md §9", true},
		{from, "// from notes" + "/library-findings.md", true},
		{from, "// in internal/ide/nosuchfile.go", true},
		{from, "// docs/nosuch.md says", true},
		{from, "// internal/checker/plugin.go: Load", false},
		{from, "// internal/checker.Plugin is immutable", false},
		{from, "// the cases in testdata/markers.", false},
		{from, "// import github.com/plugin-lsp/plugin-lsp/internal/nosuch", false},
		{from, "// docs/architecture.md#concurrency", false},
		{from, "// one per tests/*.json file", false},
		{from, "// see README.md", false},
		{from, `// the policy (docs/lsp.md, "Memory")`, false},
		{from, `// docs/host-api.md ("What is scrubbed")`, false},
		{from, `// the policy (docs/lsp.md, "No such section")`, true},
		{from, "// written to extension/vsix/x.vsix", false},
		{from, "// see NOSUCH.md", false},
		{ext, "// held to its cases (src/render.ts)", false},
		{ext, "// in src/nosuch.ts", true},
	} {
		got := badCitations(root, c.file, c.text)
		if (len(got) > 0) != c.bad {
			t.Errorf("%q: bad citations %q, want bad=%v", c.text, got, c.bad)
		}
	}
	// The TypeScript comment reader skips strings, templates and regular
	// expressions, and finds the comments around them.
	src := "const u = \"https://x.test/a\"; // one\nconst r = /[/\"]/g; /* two\n */ const t = `a ${b /* no */} //c`;\n// three"
	got := jsComments(src)
	var texts []string
	for _, c := range got {
		texts = append(texts, c.text)
	}
	want := []string{"// one", "/* two\n */", "// three"}
	if strings.Join(texts, "|") != strings.Join(want, "|") || got[2].line != 4 {
		t.Errorf("jsComments = %q (lines %v), want %q", texts, got, want)
	}
}
