package scaffold

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
)

// toolFiles is what init writes for one tool: its manifest entry, its
// page, the fixture the page fetches and its test file, each naming the
// same input property, URL and answer, so the tool checks clean and its
// test passes. The default tool is a greeter; any other name gets a
// placeholder of its own (a description naming it, a one-property
// schema, its own URL and answer), never a copy of the greeter.
type toolFiles struct {
	name string // the tool name
	base string // the file stem: code/<base>.ts, tests/<base>.json, /v1/<base> of the URL
}

// newToolFiles picks the file stem of a new tool in the plugin directory
// dir: the kebab-case name, unless another tool's page or test already
// has it (fooBar and foo_bar are both foo-bar), then the name as written,
// then the kebab-case name numbered.
func newToolFiles(dir, tool string) toolFiles {
	kebab := kebabCase(tool)
	if kebab == "" {
		kebab = "tool" // "_", "__"
	}
	candidates := []string{kebab, tool}
	for n := 2; n < 100; n++ {
		candidates = append(candidates, kebab+"-"+strconv.Itoa(n))
	}
	for _, c := range candidates {
		if !stemTaken(dir, c) {
			return toolFiles{name: tool, base: c}
		}
	}
	return toolFiles{name: tool, base: kebab} // everything taken: the existing files are kept
}

// stemTaken is true when a page or a test file of that stem exists.
func stemTaken(dir, stem string) bool {
	for _, rel := range []string{"code/" + stem, "code/" + stem + ".ts", "code/" + stem + ".js", "code/" + stem + ".mjs", "tests/" + stem + ".json"} {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel))); err == nil {
			return true
		}
	}
	return false
}

// pageStem is the file stem of a page path: code/lookup-book.ts → lookup-book.
func pageStem(page string) string {
	b := path.Base(page)
	return strings.TrimSuffix(b, path.Ext(b))
}

func (t toolFiles) greeter() bool { return t.name == DefaultTool }

// arg is the input property, example its value in the schema's examples,
// the fixture and the test.
func (t toolFiles) arg() string {
	if t.greeter() {
		return "name"
	}
	return "query"
}

func (t toolFiles) example() string {
	if t.greeter() {
		return "world"
	}
	return "example"
}

// field is the member of the API's JSON answer the page returns, answer
// its value in the fixture.
func (t toolFiles) field() string {
	if t.greeter() {
		return "message"
	}
	return "result"
}

func (t toolFiles) answer() string {
	if t.greeter() {
		return "Hello, world!"
	}
	return t.name + " answered example (a placeholder in fixtures.json)"
}

// url is the URL the page fetches for an input value.
func (t toolFiles) url(value string) string {
	return "https://" + DemoDomain + "/v1/" + t.base + "?" + t.arg() + "=" + value
}

// entry is the manifest entry of the tool.
func (t toolFiles) entry(page string) string {
	desc, argDesc := "Greets someone with the message the API returns", "Who to greet"
	if !t.greeter() {
		desc = "Placeholder: say what " + t.name + " does and when an agent should call it"
		argDesc = "What " + t.name + " works on (a placeholder: rename and describe it)"
	}
	return `{
  "name": ` + quote(t.name) + `,
  "page": ` + quote(page) + `,
  "description": ` + quote(desc) + `,
  "inputJsonSchema": {
    "type": "object",
    "properties": { ` + quote(t.arg()) + `: { "type": "string", "description": ` + quote(argDesc) + ` } },
    "required": [` + quote(t.arg()) + `],
    "additionalProperties": false,
    "examples": [{ ` + quote(t.arg()) + `: ` + quote(t.example()) + ` }]
  }
}`
}

// fixture is the fixtures.json entry that answers the example.
func (t toolFiles) fixture() string {
	return `{ "url": ` + quote(t.url(t.example())) + `, "body": { ` + quote(t.field()) + `: ` + quote(t.answer()) + ` } }`
}

// page is the tool's code.
func (t toolFiles) page() string {
	head := "// " + t.name + `: the tool's code. It runs in a fresh sandbox: no network but http.fetch to the
// domains in capabilities.fetch, answered by fixtures.json in dev runs and tests.
`
	if !t.greeter() {
		head = "// " + t.name + `: a placeholder written by plugin-lsp init (replace it with the tool's code).
// It runs in a fresh sandbox: no network but http.fetch to the domains in capabilities.fetch,
// answered by fixtures.json in dev runs and tests.
`
	}
	return head + `//   plugin-lsp run --input '{"` + t.arg() + `":"` + t.example() + `"}' . ` + t.name + `
//   plugin-lsp test .
export default async function ` + jsFunctionName(t.name) + `(input: Input<"` + t.name + `">) {
  const res = await http.fetch("` + t.url("") + `" + encodeURIComponent(input.` + t.arg() + `));
  if (!res.ok) {
    throw new Error("` + DemoDomain + ` answered " + res.status);
  }
  const data = (await res.json()) as { ` + t.field() + `: string };
  return { type: "markdown", text: data.` + t.field() + ` };
}
`
}

// test is the tool's test file: the example answered by the fixture,
// and an API error.
func (t toolFiles) test() string {
	okName := "greets the world"
	if !t.greeter() {
		okName = "returns the answer to the example"
	}
	failURL := t.url("nobody")
	return `{
  "$schema": "../` + tstypes.TestsSchemaPath + `",
  "tool": ` + quote(t.name) + `,
  "cases": [
    {
      "name": ` + quote(okName) + `,
      "input": { ` + quote(t.arg()) + `: ` + quote(t.example()) + ` },
      "result": { "type": "markdown", "text": ` + quote(t.answer()) + ` },
      "fetches": [{ "method": "GET", "url": ` + quote(t.url(t.example())) + `, "status": 200 }]
    },
    {
      "name": "an API error is thrown",
      "input": { ` + quote(t.arg()) + `: "nobody" },
      "fixtures": { "fnFetch": [{ "url": ` + quote(failURL) + `, "status": 503, "body": "unavailable" }] },
      "error": { "name": "Error", "message": "answered 503" }
    }
  ]
}
`
}

// jsFunctionName is the name of the page's default export: the tool's
// name, unless that is a reserved word of a module or a global the page
// uses (a function named http would hide http.fetch).
func jsFunctionName(tool string) string {
	switch tool {
	case "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
		"else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "implements", "import",
		"in", "instanceof", "interface", "let", "new", "null", "package", "private", "protected", "public",
		"return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while",
		"with", "yield", "arguments", "eval", "undefined", "NaN", "Infinity",
		"http", "encodeURIComponent", "Error", "Input", "input", "res", "data":
		return tool + "Tool"
	}
	return tool
}
