// Package docs holds the user documentation; this test keeps it honest:
// every relative link points at a file of the repository, and every
// snippet in a JSON, TOML, YAML or Lua block parses with a real parser
// (Go's encoding/json; Python's tomllib and PyYAML from Debian; Neovim's
// LuaJIT, the Lua that runs the snippet).
package docs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

type snippet struct {
	file string
	line int
	lang string
	text string
}

// repoRoot is the repository: this file's directory's parent.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd)
}

// markdownFiles lists the repository's Markdown outside node_modules and testdata.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || d.Name() == ".git" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 5 {
		t.Fatalf("found only %d Markdown files under %s", len(out), root)
	}
	return out
}

// Snippets returns the fenced code blocks of a Markdown text.
func snippets(file, text string) []snippet {
	var out []snippet
	var cur *snippet
	var body strings.Builder
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, "```") {
			if cur != nil {
				body.WriteString(line + "\n")
			}
			continue
		}
		if cur == nil {
			cur = &snippet{file: file, line: n, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
			body.Reset()
		} else {
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		}
	}
	return out
}

var codeSpanRE = regexp.MustCompile("`[^`\n]*`")

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

func TestRelativeLinksResolve(t *testing.T) {
	root := repoRoot(t)
	checked := 0
	for _, f := range markdownFiles(t, root) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Links inside code blocks are examples, not links.
		text := string(data)
		for _, s := range snippets(f, text) {
			text = strings.Replace(text, s.text, "", 1)
		}
		text = codeSpanRE.ReplaceAllString(text, "")
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			p := filepath.Join(filepath.Dir(f), filepath.FromSlash(target))
			checked++
			if _, err := os.Stat(p); err != nil {
				rel, _ := filepath.Rel(root, f)
				t.Errorf("%s: dead link %s", rel, m[1])
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked only %d relative links: the link pattern is broken", checked)
	}
}

// The docs that must never cite what is not in the repository.
func TestNoCitationsOutsideTheRepository(t *testing.T) {
	root := repoRoot(t)
	for _, f := range markdownFiles(t, root) {
		data, _ := os.ReadFile(f)
		for _, bad := range []string{"DESIGN" + ".md", "notes/" + "library-findings", "](../" + "shared", "](../../" + "shared"} {
			if bytes.Contains(data, []byte(bad)) {
				rel, _ := filepath.Rel(root, f)
				t.Errorf("%s cites %s, which is not in the repository", rel, bad)
			}
		}
	}
}

func TestSnippetsParse(t *testing.T) {
	root := repoRoot(t)
	counts := map[string]int{}
	for _, f := range markdownFiles(t, root) {
		data, _ := os.ReadFile(f)
		rel, _ := filepath.Rel(root, f)
		for _, s := range snippets(rel, string(data)) {
			where := fmt.Sprintf("%s:%d (%s)", s.file, s.line, s.lang)
			switch s.lang {
			case "json":
				// docs/rules.md shows each rule's failing input on purpose.
				if filepath.ToSlash(s.file) == "docs/rules.md" {
					continue
				}
				var v any
				if err := json.Unmarshal([]byte(s.text), &v); err != nil {
					t.Errorf("%s: not JSON: %v\n%s", where, err, s.text)
				}
			case "toml":
				parseWith(t, where, s.text, python(t), "-c", "import sys, tomllib; tomllib.loads(sys.stdin.read())")
			case "yaml", "yml":
				parseWith(t, where, s.text, python(t), "-c", "import sys, yaml; yaml.safe_load(sys.stdin.read())")
			case "lua":
				parseLua(t, where, s.text)
			default:
				continue
			}
			counts[s.lang]++
		}
	}
	for _, lang := range []string{"json", "toml", "yaml", "lua"} {
		if counts[lang] == 0 {
			t.Errorf("no %s snippet checked: docs/editors.md and docs/ci.md have some", lang)
		}
	}
	t.Logf("snippets parsed: %v", counts)
}

// python is Debian's python3 (tomllib is in its standard library, PyYAML is
// python3-yaml, which scripts/test.sh installs).
func python(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil {
			if exec.Command(path, "-c", "import tomllib, yaml").Run() == nil {
				return path
			}
		}
	}
	t.Fatal("python3 with tomllib and PyYAML is needed: apt-get install python3-yaml")
	return ""
}

func parseWith(t *testing.T, where, text, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: does not parse: %v\n%s\n%s", where, err, out, text)
	}
}

// parseLua compiles the snippet with Neovim's own Lua (LuaJIT) without running it.
func parseLua(t *testing.T, where, text string) {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("nvim is needed to parse Lua snippets: apt-get install neovim")
	}
	f := filepath.Join(t.TempDir(), "snippet.lua")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	check := `lua local f, err = loadfile(os.getenv("SNIPPET")); if not f then io.stderr:write(err .. "\n"); vim.cmd("cquit 1") end`
	cmd := exec.Command(nvim, "--headless", "--clean", "-u", "NONE", "-c", check, "-c", "qall!")
	cmd.Env = append(os.Environ(), "SNIPPET="+f)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: Lua does not parse: %v\n%s\n%s", where, err, out, text)
	}
}

// schemaFields lists every field path of the manifest schema the way
// manifest.md writes them: "tools[].name", "capabilities.fetch[].domain".
func schemaFields(t *testing.T) map[string]bool {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal(schema.JSON, &s); err != nil {
		t.Fatal(err)
	}
	defs, _ := s["$defs"].(map[string]any)
	resolve := func(x map[string]any) map[string]any {
		for i := 0; i < 10; i++ {
			ref, ok := x["$ref"].(string)
			if !ok {
				break
			}
			x, _ = defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		}
		return x
	}
	out := map[string]bool{}
	var walk func(x map[string]any, prefix string, depth int)
	walk = func(x map[string]any, prefix string, depth int) {
		x = resolve(x)
		if x == nil || depth > 8 {
			return
		}
		props := map[string]any{}
		own, _ := x["properties"].(map[string]any)
		then, _ := x["then"].(map[string]any) // if/then: the object form of a fetch entry
		thenProps, _ := then["properties"].(map[string]any)
		for _, m := range []map[string]any{own, thenProps} {
			for k, v := range m {
				props[k] = v
			}
		}
		for k, v := range props {
			out[prefix+k] = true
			sub, _ := v.(map[string]any)
			if k == "inputJsonSchema" { // a JSON Schema of the author's, not manifest fields
				continue
			}
			walk(sub, prefix+k+".", depth+1)
		}
		if items, ok := x["items"].(map[string]any); ok {
			walk(items, strings.TrimSuffix(prefix, ".")+"[].", depth+1)
		}
	}
	walk(s, "", 0)
	return out
}

var fieldRowRE = regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")

func TestManifestDocCoversTheSchema(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "manifest.md"))
	if err != nil {
		t.Fatal(err)
	}
	fields := schemaFields(t)
	if len(fields) < 20 || !fields["capabilities.credentials[].into.header"] || !fields["tools[].page"] {
		t.Fatalf("the schema walk is broken: %v", fields)
	}
	documented := map[string]bool{}
	for _, m := range fieldRowRE.FindAllStringSubmatch(string(data), -1) {
		documented[m[1]] = true
		if !fields[m[1]] {
			t.Errorf("docs/manifest.md documents %s, which the schema does not have", m[1])
		}
	}
	for f := range fields {
		if !documented[f] {
			t.Errorf("docs/manifest.md does not document %s", f)
		}
	}

	// Every complete manifest on the page is valid.
	v, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	valid := 0
	for _, s := range snippets("docs/manifest.md", string(data)) {
		if s.lang != "json" {
			continue
		}
		root, serr := jsonpos.Parse([]byte(s.text))
		if serr != nil {
			t.Errorf("docs/manifest.md:%d: %v", s.line, serr.Message)
			continue
		}
		for _, p := range v.Validate(root) {
			t.Errorf("docs/manifest.md:%d: %s: %s", s.line, p.Pointer, p.Message)
		}
		valid++
	}
	if valid < 3 {
		t.Errorf("only %d manifests validated", valid)
	}
}
