package tstypes

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// docBlocks returns the TypeScript fenced blocks of a Markdown file with
// the line each starts on.
func docBlocks(t *testing.T, path string) (blocks []string, lines []int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cur []string
	in := false
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case !in && (l == "```ts" || l == "```typescript"):
			in, cur = true, nil
			lines = append(lines, i+2)
		case in && strings.HasPrefix(l, "```"):
			in = false
			blocks = append(blocks, strings.Join(cur, "\n")+"\n")
		case in:
			cur = append(cur, l)
		}
	}
	return blocks, lines
}

var signatureStart = regexp.MustCompile(`^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\(`)

// signatures rewrites a reference block of signatures (`http.fetch(input:
// …): Promise<Response>`, one or more) as checks against the generated
// declarations: every argument list the docs allow is accepted
// (Parameters<typeof http.fetch>), and what the call returns is what the
// docs say. ok is false when the block is not such a list.
func signatures(block string) (string, bool) {
	var out strings.Builder
	s := block
	n := 0
	for {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			break
		}
		m := signatureStart.FindStringSubmatch(s)
		if m == nil {
			return "", false
		}
		name := m[1]
		i, depth := len(name), 0
		for ; i < len(s); i++ {
			if s[i] == '(' {
				depth++
			} else if s[i] == ')' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		params := s[len(name)+1 : i]
		rest := strings.TrimLeft(s[i+1:], " ")
		if !strings.HasPrefix(rest, ":") {
			return "", false
		}
		end := strings.IndexByte(rest, '\n')
		if end < 0 {
			end = len(rest)
		}
		ret := strings.TrimSpace(rest[1:end])
		s = rest[end:]
		n++
		fmt.Fprintf(&out, "declare const docArgs%d: [%s];\nexport const args%d: Parameters<typeof %s> = docArgs%d;\n", n, params, n, name, n)
		fmt.Fprintf(&out, "declare const ours%d: ReturnType<typeof %s>;\nexport const returns%d: %s = ours%d;\n", n, name, n, ret, n)
	}
	return out.String(), n > 0
}

// Every TypeScript block of docs/host-api.md and docs/authoring.md holds
// against the generated declarations, compiled by tsc with the generated
// tsconfig.json: a signature block is accepted as documented (arguments
// and result), a page compiles with exactly the errors its "// error TS…"
// comments announce. A page importing JSON with import attributes (as the
// runner's bundler accepts) compiles too.
func TestDocBlocksCompile(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("plugin.json", `{
  "name": "docs",
  "version": "1.0.0",
  "description": "The docs' blocks.",
  "capabilities": {
    "host": ["http.fetch", "collections.get", "collections.put", "collections.delete", "collections.query"],
    "fetch": ["api.openlibrary.org"]
  },
  "tools": [
    {"name": "lookupBook", "description": "A book.", "page": "code/lookup-book.ts",
     "inputJsonSchema": {"type": "object", "properties": {"isbn": {"type": "string"}}, "required": ["isbn"]}}
  ]
}
`)
	write("code/lookup-book.ts", "export default async function lookupBook(input: Input<\"lookupBook\">) {\n  return input.isbn;\n}\n")
	write("code/shelf.json", `{"shelf": ["0140328726"]}`+"\n")
	write("code/json-import.ts", "import data from \"./shelf.json\" with { type: \"json\" };\nexport const first: string = data.shelf[0];\n")
	n := 0
	for _, doc := range []string{"host-api.md", "authoring.md"} {
		blocks, lines := docBlocks(t, filepath.Join("..", "..", "..", "docs", doc))
		for i, b := range blocks {
			name := fmt.Sprintf("code/doc-%s-%d.ts", strings.TrimSuffix(doc, ".md"), lines[i])
			if sig, ok := signatures(b); ok {
				b = sig
			}
			write(name, b)
			n++
		}
	}
	if n < 3 {
		t.Fatalf("only %d TypeScript blocks in the docs", n)
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFiles(p); err != nil {
		t.Fatal(err)
	}
	got := tsc(t, dir)
	want := expected(t, dir, "code")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tsc errors differ\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The signature check fails when the declarations are narrower than the
// docs (the control: a check that cannot fail proves nothing).
func TestSignatureCheckCanFail(t *testing.T) {
	sig, ok := signatures("http.fetch(input: string | URL | Request | number): Promise<Response>\n")
	if !ok || !strings.Contains(sig, "[input: string | URL | Request | number]") {
		t.Fatalf("not rewritten: %q", sig)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name": "x", "version": "1.0.0", "description": "x", "capabilities": {"host": ["http.fetch"]}, "tools": []}`), 0o644)
	os.WriteFile(filepath.Join(dir, "code", "sig.ts"), []byte(sig), 0o644)
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFiles(p); err != nil {
		t.Fatal(err)
	}
	if got := tsc(t, dir); len(got) != 1 || !strings.HasPrefix(got[0], "code/sig.ts:2 ") {
		t.Errorf("a number URL is not in the declarations, want one error on line 2: %v", got)
	}
}
