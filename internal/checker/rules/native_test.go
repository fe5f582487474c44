package rules

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// nativeFS is an in-memory plugin directory at /p for the native rule
// tests: file names are slash paths relative to the plugin.
type nativeFS map[string]string

const nativeDir = "/p"

func (m nativeFS) rel(name string) (string, bool) {
	r, err := filepath.Rel(nativeDir, name)
	if err != nil || strings.HasPrefix(r, "..") {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (m nativeFS) ReadFile(name string) ([]byte, error) {
	if r, ok := m.rel(name); ok {
		if s, ok := m[r]; ok {
			return []byte(s), nil
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m nativeFS) Lstat(name string) (fs.FileInfo, error) {
	if r, ok := m.rel(name); ok {
		if s, ok := m[r]; ok {
			return nativeFileInfo{filepath.Base(name), int64(len(s))}, nil
		}
	}
	return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
}

func (m nativeFS) EvalSymlinks(name string) (string, error) { return name, nil }

type nativeFileInfo struct {
	name string
	size int64
}

func (i nativeFileInfo) Name() string       { return i.name }
func (i nativeFileInfo) Size() int64        { return i.size }
func (i nativeFileInfo) Mode() fs.FileMode  { return 0o644 }
func (i nativeFileInfo) ModTime() time.Time { return time.Time{} }
func (i nativeFileInfo) IsDir() bool        { return false }
func (i nativeFileInfo) Sys() any           { return nil }

// runNative runs the native rules on an in-memory plugin.
func runNative(t *testing.T, files nativeFS, cache *checker.Cache) (*checker.Plugin, []checker.Diagnostic) {
	t.Helper()
	p := loadManifest(t, files, nativeDir, []byte(files["plugin.json"]))
	return p, checker.Run(p, nativeRules(), checker.DefaultConfig(), cache)
}

// nativeLines renders diagnostics like check --format text.
func nativeLines(p *checker.Plugin, ds []checker.Diagnostic) string {
	return formatText(p, "", ds)
}

func expectNative(t *testing.T, files nativeFS, want string) (*checker.Plugin, []checker.Diagnostic) {
	t.Helper()
	p, ds := runNative(t, files, nil)
	if got := nativeLines(p, ds); got != strings.TrimLeft(want, "\n") {
		t.Errorf("diagnostics:\n--- got\n%s--- want\n%s", got, strings.TrimLeft(want, "\n"))
	}
	return p, ds
}

func applyEdits(t *testing.T, text string, edits []checker.Edit) string {
	t.Helper()
	// Apply from the end so earlier offsets stay valid.
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if e.Span.Start < 0 || e.Span.End > len(text) || e.Span.Start > e.Span.End {
			t.Fatalf("edit span %v outside the text", e.Span)
		}
		text = text[:e.Span.Start] + e.NewText + text[e.Span.End:]
	}
	return text
}

func TestNativeExportUndeclaredFix(t *testing.T) {
	files := nativeFS{
		"plugin.json": "{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\",\n  \"sdk\": 1,\n  \"nativeTools\": [\n    { \"module\": \"native/m.js\", \"names\": [\"a.one\"] }\n  ]\n}\n",
		"native/m.js": "export const tools = {\n  \"a.one\": { description: \"1\" },\n  \"a.two\": { description: \"2\" },\n};\n",
	}
	p, ds := expectNative(t, files, `
native/m.js:3:3: info: "a.two" is exported but not declared in plugin.json nativeTools names: ignored at runtime [native-export-undeclared]
  fix: Add "a.two" to names in plugin.json
`)
	d := ds[0]
	if len(d.Tags) != 1 || d.Tags[0] != checker.Unnecessary {
		t.Errorf("tags = %v, want [Unnecessary]", d.Tags)
	}
	if len(d.Related) != 1 || d.Related[0].File != "plugin.json" || files["plugin.json"][d.Related[0].Span.Start:d.Related[0].Span.End] != "[\"a.one\"]" {
		t.Errorf("related = %+v, want the names array", d.Related)
	}
	if len(d.Fixes) != 1 || len(d.Fixes[0].Edits) != 1 {
		t.Fatalf("fixes = %+v, want one fix with one edit", d.Fixes)
	}
	e := d.Fixes[0].Edits[0]
	if e.File != "plugin.json" {
		t.Errorf("edit file = %q, want plugin.json", e.File)
	}
	fixed := applyEdits(t, files["plugin.json"], d.Fixes[0].Edits)
	if !strings.Contains(fixed, `"names": ["a.one", "a.two"]`) {
		t.Errorf("fixed manifest:\n%s", fixed)
	}
	if _, err := jsonpos.Parse([]byte(fixed)); err != nil {
		t.Errorf("fixed manifest is not JSON: %v", err)
	}
	files["plugin.json"] = fixed
	expectNative(t, files, "")
	_ = p
}

func TestNativeExportUndeclaredFixCreatesNames(t *testing.T) {
	files := nativeFS{
		"plugin.json":  "{ \"name\": \"x\", \"version\": \"1.0.0\", \"sdk\": 1, \"nativeTools\": [{ \"module\": \"native/m.mjs\" }] }",
		"native/m.mjs": "export default { \"a.one\": {} };",
	}
	_, ds := expectNative(t, files, `
native/m.mjs:1:18: info: "a.one" is exported but not declared in plugin.json nativeTools names: ignored at runtime [native-export-undeclared]
  fix: Add "a.one" to names in plugin.json
`)
	if len(ds) != 1 || len(ds[0].Fixes) != 1 {
		t.Fatalf("want one diagnostic with a fix, got %+v", ds)
	}
	fixed := applyEdits(t, files["plugin.json"], ds[0].Fixes[0].Edits)
	if !strings.Contains(fixed, `"names": ["a.one"]`) {
		t.Errorf("fixed manifest:\n%s", fixed)
	}
}

func TestNativeSharedModule(t *testing.T) {
	// Two entries name one module: it is read once, and the names of both
	// count as declared.
	files := nativeFS{
		"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [
  { "module": "native/m.js", "names": ["a.one"] },
  { "module": "./native/m.js", "names": ["a.two", "a.three"] }
] }`,
		"native/m.js": "export const tools = { \"a.one\": {}, \"a.two\": {} };",
	}
	cache := checker.NewCache()
	p, ds := runNative(t, files, cache)
	want := "plugin.json:3:51: error: \"a.three\" is not exported by native/m.js: its `tools` export has no such key [native-name-not-exported]\n"
	if got := nativeLines(p, ds); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	if n := cache.Len(); n != 1 {
		t.Errorf("cache holds %d entries after one module was checked by %d rules, want 1", n, len(nativeRules()))
	}
	if r := ds[0].Related; len(r) != 1 || r[0].File != "native/m.js" || files["native/m.js"][r[0].Span.Start:r[0].Span.End] != "{ \"a.one\": {}, \"a.two\": {} }" {
		t.Errorf("related = %+v, want the tools map", r)
	}
}

func TestNativeNoExports(t *testing.T) {
	expectNative(t, nativeFS{
		"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [{ "module": "m.js", "names": ["a.one"] }] }`,
		"m.js":        "// nothing yet\n",
	}, `
plugin.json:1:92: error: "a.one" is not exported: m.js has no `+"`tools`"+` export and no default export [native-name-not-exported]
`)
}

func TestNativeUnknowableSilencesNames(t *testing.T) {
	expectNative(t, nativeFS{
		"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [{ "module": "m.js", "names": ["a.one", "a.zzz"] }] }`,
		"m.js":        "import { more } from \"./more.js\";\nexport const tools = { \"a.one\": {}, ...more };",
	}, `
m.js:2:37: info: spread of `+"`more`"+`: names cannot be checked statically [native-exports-unknown]
`)
}

func TestNativeSkipsWhatOthersReport(t *testing.T) {
	// Missing, outside and non-string modules belong to other rules;
	// names of the wrong type are manifest-schema's.
	expectNative(t, nativeFS{
		"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [
  { "module": "native/missing.js", "names": ["a.one"] },
  { "module": "../outside.js", "names": ["a.two"] },
  { "module": 42, "names": ["a.three"] },
  { "module": "m.js", "names": [7, null, "a.four"] },
  "not an object"
] }`,
		"m.js": "export const tools = { \"a.four\": {} };",
	}, "")
}

func TestNativeTypeScriptNotRead(t *testing.T) {
	cache := checker.NewCache()
	p, ds := runNative(t, nativeFS{
		"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [{ "module": "native/m.ts", "names": ["a.one"] }] }`,
		"native/m.ts": "export const tools: Record<string, Tool> = {};",
	}, cache)
	want := "plugin.json:1:74: error: native/m.ts is TypeScript source: a native module must be compiled ESM (.js or .mjs); point `module` at the compiled file [native-module-not-esm]\n"
	if got := nativeLines(p, ds); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	if cache.Len() != 0 {
		t.Errorf("a .ts module was parsed")
	}
}

func TestNativeHostileModules(t *testing.T) {
	big := "export const tools = { \"a.one\": { description: \"" + strings.Repeat("é", 5<<20) + "\" } };"
	for name, src := range map[string]string{
		"10 MB":       big,
		"binary":      "\x00\x01\xff\xfe\x7f export default {",
		"truncated":   "export const tools = { \"a.one\": { requires: [\"clock\"",
		"deep":        "export default " + strings.Repeat("[", 20000),
		"only export": "export",
	} {
		t.Run(name, func(t *testing.T) {
			p, ds := runNative(t, nativeFS{
				"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [{ "module": "m.js", "names": ["a.one"] }] }`,
				"m.js":        src,
			}, nil)
			for _, d := range ds {
				if d.Code == checker.InternalErrorCode {
					t.Fatalf("a rule crashed: %s", d.Message)
				}
			}
			_ = nativeLines(p, ds) // positions convert
		})
	}
}

// Each native rule lives in the file named after its code, with a doc and
// examples (docs/rules.md is generated from them).
func TestNativeRuleMetadata(t *testing.T) {
	all := All()
	for _, r := range nativeRules() {
		file := strings.ReplaceAll(r.Code, "-", "_") + ".go"
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: %v", r.Code, err)
			continue
		}
		if !strings.Contains(string(src), "Code:     \""+r.Code+"\"") {
			t.Errorf("%s is not declared in %s", r.Code, file)
		}
		if r.Title == "" || r.Doc == "" || r.Before == "" || r.After == "" || r.Lang == "" || r.Severity == 0 {
			t.Errorf("%s: missing title, doc, examples, language or severity", r.Code)
		}
		if !slices.Contains(all, r) {
			t.Errorf("%s is not in All()", r.Code)
		}
	}
}

// A module diagnostic about a declared tool points at its name in
// plugin.json.
func TestNativeRelatedToDeclaredName(t *testing.T) {
	files := nativeFS{
		"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [{ "module": "m.js", "names": ["a.one"] }] }`,
		"m.js":        "export const tools = { \"a.one\": { requires: [\"network.sockets\"], alwaysGate: false } };",
	}
	_, ds := expectNative(t, files, `
m.js:1:46: error: unknown broker capability "network.sockets" in requires of "a.one" (did you mean `+"`network.socket`"+`?) [native-unknown-requires]
m.js:1:66: error: tool "a.one" claims alwaysGate authority: a plugin may lift only its own gate (needsApproval: false), never claim alwaysGate [native-always-gate]
`)
	for _, d := range ds {
		if len(d.Related) != 1 || d.Related[0].File != "plugin.json" || files["plugin.json"][d.Related[0].Span.Start:d.Related[0].Span.End] != `"a.one"` {
			t.Errorf("%s: related = %+v, want the name in plugin.json", d.Code, d.Related)
		}
	}
}

// The rule's doc lists the catalogue; keep them in step.
func TestNativeUnknownRequiresDocListsCatalogue(t *testing.T) {
	for _, c := range jsmodule.BrokerCapabilities() {
		if !strings.Contains(NativeUnknownRequires.Doc, c.Name) {
			t.Errorf("native-unknown-requires doc does not mention %s", c.Name)
		}
	}
}

// Following other modules stops at cycles, at the plugin's edge and at
// modules that cannot be read; each of those stays unknowable.
func TestNativeFollowLimits(t *testing.T) {
	expectNative(t, nativeFS{
		"plugin.json": `{ "name": "x", "version": "1.0.0", "sdk": 1, "nativeTools": [
  { "module": "a.js", "names": ["a.one", "a.nope"] },
  { "module": "c.js", "names": ["c.one"] }
] }`,
		"a.js":      "export * from \"./b.js\";\nexport const tools = { \"a.one\": {}, ...loop };\nimport { loop } from \"./b.js\";",
		"b.js":      "export * from \"./a.js\";\nexport { tools as loop } from \"./a.js\";",
		"c.js":      "import { x } from \"../outside.js\";\nimport { y } from \"./broken.js\";\nimport { z } from \"./cjs.js\";\nexport const tools = { ...x, ...y, ...z, \"c.one\": {} };",
		"broken.js": "export const y = {",
		"cjs.js":    "module.exports = { z: {} };",
	}, `
c.js:4:24: info: spread of `+"`x`"+`: names cannot be checked statically [native-exports-unknown]
c.js:4:30: info: spread of `+"`y`"+`: names cannot be checked statically [native-exports-unknown]
c.js:4:36: info: spread of `+"`z`"+`: names cannot be checked statically [native-exports-unknown]
plugin.json:2:42: error: "a.nope" is not exported by a.js: its `+"`tools`"+` export has no such key (did you mean `+"`a.one`"+`?) [native-name-not-exported]
`)
}
