package rules

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// copyPlugin copies testdata/plugins/<name> into a temp dir (symlinks
// skipped) and returns the copy's path.
func copyPlugin(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(pluginsDir, name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(out, b, 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// applyFix writes a fix's edits into the plugin at dir.
func applyFix(t *testing.T, dir string, fix checker.Fix) {
	t.Helper()
	byFile := map[string][]checker.Edit{}
	for _, e := range fix.Edits {
		if e.Create {
			p := filepath.Join(dir, filepath.FromSlash(e.File))
			if _, err := os.Stat(p); err == nil {
				t.Fatalf("fix %q creates %s, which exists", fix.Title, e.File)
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(e.NewText), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	for file, edits := range byFile {
		p := filepath.Join(dir, filepath.FromSlash(file))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start > edits[j].Span.Start })
		for _, e := range edits {
			b = append(b[:e.Span.Start:e.Span.Start], append([]byte(e.NewText), b[e.Span.End:]...)...)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func codes(ds []checker.Diagnostic, code string) []checker.Diagnostic {
	var out []checker.Diagnostic
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// fixAll applies the first fix of every diagnostic with code (one at a
// time, re-checking in between since spans move), checks that each
// application removes one diagnostic, that plugin.json stays valid JSON,
// and returns the final manifest text and diagnostics.
func fixAll(t *testing.T, dir, code string, wantTitles []string) (string, []checker.Diagnostic) {
	t.Helper()
	var titles []string
	for i := 0; ; i++ {
		_, ds := checkDir(t, dir)
		found := codes(ds, code)
		var fixable []checker.Diagnostic
		for _, d := range found {
			if len(d.Fixes) > 0 {
				fixable = append(fixable, d)
			}
		}
		if len(fixable) == 0 {
			break
		}
		if i > 20 {
			t.Fatalf("%s: fixes do not converge", code)
		}
		fix := fixable[0].Fixes[0]
		titles = append(titles, fix.Title)
		applyFix(t, dir, fix)
		text, _ := os.ReadFile(filepath.Join(dir, "plugin.json"))
		if _, err := jsonpos.Parse(text); err != nil {
			t.Fatalf("after %q plugin.json is not JSON: %v\n%s", fix.Title, err, text)
		}
		_, after := checkDir(t, dir)
		if n := len(codes(after, code)); n != len(found)-1 {
			t.Fatalf("after %q: %d %s diagnostics, want %d", fix.Title, n, code, len(found)-1)
		}
	}
	if strings.Join(titles, "\n") != strings.Join(wantTitles, "\n") {
		t.Errorf("fix titles:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(wantTitles, "\n"))
	}
	text, _ := os.ReadFile(filepath.Join(dir, "plugin.json"))
	_, ds := checkDir(t, dir)
	return string(text), ds
}

func TestFixNativeSDKMissing(t *testing.T) {
	dir := copyPlugin(t, "manifest-sdk-missing")
	text, ds := fixAll(t, dir, "native-sdk-missing", []string{`Add "sdk": 1`})
	if !strings.Contains(text, `"sdk": 1`) || len(ds) != 0 {
		t.Errorf("after fix:\n%s\n%v", text, ds)
	}
}

func TestFixFetchLimitRange(t *testing.T) {
	dir := copyPlugin(t, "manifest-fetch-limits")
	text, _ := fixAll(t, dir, "fetch-limit-range", []string{
		"Clamp to 16777216", "Clamp to 60000", "Use the default 1048576", "Use the default 10000",
	})
	for _, want := range []string{
		`{ "domain": "images.example.com", "fetchMaxBytes": 16777216, "fetchTimeoutMs": 60000 }`,
		`{ "domain": "thumbs.example.com", "fetchMaxBytes": 1048576, "fetchTimeoutMs": 10000 }`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("manifest lacks %s:\n%s", want, text)
		}
	}
}

func TestFixCredentialUnscoped(t *testing.T) {
	dir := copyPlugin(t, "creds-unscoped")
	_, ds := checkDir(t, dir)
	d := codes(ds, "credential-unscoped")
	if len(d) != 1 || len(d[0].Fixes) != 2 || d[0].Fixes[1].Title != `Send "openlibrary_key" only to covers.example-cdn.net` {
		t.Fatalf("fixes: %+v", d)
	}
	text, _ := fixAll(t, dir, "credential-unscoped", []string{`Send "openlibrary_key" only to api.openlibrary.org`})
	if !strings.Contains(text, `"domains": ["api.openlibrary.org"]`) {
		t.Errorf("manifest:\n%s", text)
	}
	// No name match: the first fetch domain is proposed first.
	dir = copyPlugin(t, "creds-unscoped-nomatch")
	text, _ = fixAll(t, dir, "credential-unscoped", []string{
		`Send "primary_token" only to api.hubspot.com`, `Send "mailchimp_key" only to api.mailchimp.com`,
	})
	if strings.Count(text, `"domains"`) != 2 {
		t.Errorf("manifest:\n%s", text)
	}
}

func TestFixNameShadowsBuiltin(t *testing.T) {
	dir := copyPlugin(t, "names-shadow-builtin")
	text, ds := fixAll(t, dir, "name-shadows-builtin", []string{
		`Rename to "search-plus.search" in plugin.json and native/search.js`,
		`Rename to "search-plus.rerank" in plugin.json and native/search.js`,
		`Rename to "search-plus.read" in plugin.json and native/search.js`,
	})
	if !strings.Contains(text, `["search-plus.search", "search-plus.rerank", "search-plus.read", "search-plus.files"]`) {
		t.Errorf("manifest:\n%s", text)
	}
	// The module's tools map is renamed too: nothing is left unexported.
	if len(codes(ds, "manifest-schema")) != 0 || len(codes(ds, "native-name-not-exported")) != 0 {
		t.Errorf("renamed names leave diagnostics: %v", ds)
	}
}

func TestFixToolPageMissing(t *testing.T) {
	dir := copyPlugin(t, "manifest-page-missing")
	_, ds := fixAll(t, dir, "tool-page-missing", []string{"Create code/find-recipe.ts", "Create code/random-recipe.ts"})
	// The page outside the directory has no fix and stays.
	if _, err := os.Stat(filepath.Join(dir, "code/find-recipe.ts")); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "code/find-recipe.ts"))
	want := "// findRecipe: Find a recipe by ingredient\n" +
		"interface Input {\n  ingredient: string;\n  max?: number;\n}\n\n" +
		"export default async function findRecipe(input: Input) {\n" +
		"  return { type: \"markdown\", text: \"TODO: implement findRecipe (input: \" + JSON.stringify(input) + \")\" };\n}\n"
	if string(page) != want {
		t.Errorf("template:\n%s\nwant:\n%s", page, want)
	}
	// The created pages are clean for every page rule.
	for _, d := range ds {
		if strings.HasPrefix(d.File, "code/") {
			t.Errorf("created page has a diagnostic: %s %s", d.Code, d.Message)
		}
	}
}

func TestFixToolPageMissingOutsideHasNoFix(t *testing.T) {
	_, ds := checkDir(t, filepath.Join(pluginsDir, "manifest-page-missing"))
	for _, d := range codes(ds, "tool-page-missing") {
		if strings.Contains(d.Message, "leaves the plugin directory") && len(d.Fixes) != 0 {
			t.Errorf("a page outside must not get a create fix: %+v", d.Fixes)
		}
	}
}

func TestFixNativeModuleMissing(t *testing.T) {
	dir := copyPlugin(t, "manifest-native-missing")
	_, ds := fixAll(t, dir, "native-module-missing", []string{"Create native/telegram.js (a module stub)"})
	stub, _ := os.ReadFile(filepath.Join(dir, "native/telegram.js"))
	for _, want := range []string{"export const tools = {\n", `  "tg.sendMessage": {`, `  "tg.readChat": {`, "async execute(args, ctx) {"} {
		if !strings.Contains(string(stub), want) {
			t.Errorf("stub lacks %q:\n%s", want, stub)
		}
	}
	// The stub exports exactly the declared names, as ESM: the native
	// rules find nothing to say.
	if len(ds) != 0 {
		t.Errorf("after the fix: %v", ds)
	}
}

func TestNameShadowsBuiltinFunctionTool(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"x","version":"1.0.0","tools":[{"name":"run","page":"p"},{"name":"run2","page":"p"}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "p.ts"), []byte("export default function run() { return 1; }\n"), 0o644)
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &checker.Config{Builtins: checker.DefaultCatalogue().Extend("fn.run")}
	ds := codes(checker.Run(p, All(), cfg, nil), "name-shadows-builtin")
	if len(ds) != 1 || ds[0].Fixes[0].Title != `Rename to "run3"` {
		t.Fatalf("%+v", ds)
	}
}

func TestFixFetchDomains(t *testing.T) {
	dir := copyPlugin(t, "manifest-fetch-domains")
	text, ds := fixAll(t, dir, "manifest-schema", []string{
		`Use the bare domain "api.newsdata.example"`, `Use the bare domain "feeds.example.org"`,
		`Use the bare domain "mirror.example.net"`, `Use the bare domain "wire.example.com"`,
	})
	if !strings.Contains(text, `"api.newsdata.example",`) || !strings.Contains(text, `"domains": ["wire.example.com"]`) {
		t.Errorf("manifest:\n%s", text)
	}
	// The non-ASCII host has no fix and stays.
	if left := codes(ds, "manifest-schema"); len(left) != 1 || !strings.Contains(left[0].Message, "not ASCII") {
		t.Errorf("left: %+v", left)
	}
}

// The rename suggestion is always a valid, free name, whatever the
// plugin is called.
func TestNameShadowsBuiltinSuggestion(t *testing.T) {
	for name, want := range map[string]string{
		`"fn"`:       `Rename to "plugin.search"`,
		`"3d-tools"`: `Rename to "plugin.search"`,
		`"Bad Name"`: `Rename to "plugin.search"`,
		`"maps"`:     `Rename to "maps.search2"`, // maps.search is taken below
		`42`:         `Rename to "plugin.search"`,
	} {
		src := `{"name":` + name + `,"version":"1.0.0","sdk":1,"nativeTools":[{"module":"m.js","names":["web.search","maps.search"]}]}`
		p := loadManifest(t, noFiles{}, "/x", []byte(src))
		ds := codes(checker.Run(p, All(), nil, nil), "name-shadows-builtin")
		if len(ds) != 1 || len(ds[0].Fixes) != 1 || ds[0].Fixes[0].Title != want {
			t.Errorf("name %s: %+v", name, ds)
		}
	}
	src := `{"name":"p","version":"1.0.0","sdk":1,"nativeTools":[{"module":"m.js","names":["fn."]}]}`
	p := loadManifest(t, noFiles{}, "/x", []byte(src))
	if ds := codes(checker.Run(p, All(), nil, nil), "name-shadows-builtin"); len(ds) != 1 || ds[0].Fixes[0].Title != `Rename to "p.tool"` {
		t.Errorf("fn.: %+v", ds)
	}
}

// Several fetch domains match the credential's name: all are proposed
// together first, then each alone.
func TestCredentialUnscopedSeveralMatches(t *testing.T) {
	_, ds := checkDir(t, filepath.Join(pluginsDir, "creds-partial"))
	d := codes(ds, "credential-unscoped")
	if len(d) != 1 {
		t.Fatalf("%+v", ds)
	}
	var titles []string
	for _, f := range d[0].Fixes {
		titles = append(titles, f.Title)
	}
	want := `Send "stripe_secret" only to api.stripe.com, files.stripe.com` + "\n" +
		`Send "stripe_secret" only to api.stripe.com` + "\n" +
		`Send "stripe_secret" only to api.exchangerate.example` + "\n" +
		`Send "stripe_secret" only to files.stripe.com`
	if strings.Join(titles, "\n") != want {
		t.Errorf("fixes:\n%s", strings.Join(titles, "\n"))
	}
	dir := copyPlugin(t, "creds-partial")
	text, _ := fixAll(t, dir, "credential-unscoped", []string{`Send "stripe_secret" only to api.stripe.com, files.stripe.com`})
	if !strings.Contains(text, `"format": "Bearer {{secret}}" }, "domains": ["api.stripe.com", "files.stripe.com"] }`) {
		t.Errorf("manifest:\n%s", text)
	}
}

func TestManifestSyntaxMessages(t *testing.T) {
	for src, want := range map[string]string{
		`{"tools":` + strings.Repeat("[", 20000): "nested too deeply",
		"\xef\xbb\xbf{}":                         "byte order mark",
		`{"a": 1 // note` + "\n}":                "comments are not allowed",
		`{"a": [1, 2,]}`:                         "trailing comma before ']'",
		`{"a": 1,}`:                              "trailing comma before '}'",
		`{'a': 1}`:                               "double quotes",
		"{\"a\": \"open\n}":                      "string not closed",
		`{"name": "x"`:                           "incomplete",
		`"just a string"`:                        "must hold a JSON object, not a string",
		``:                                       "empty document",
	} {
		p := loadManifest(t, noFiles{}, "/x", []byte(src))
		ds := codes(checker.Run(p, All(), nil, nil), "manifest-syntax")
		if len(ds) != 1 || !strings.Contains(ds[0].Message, want) {
			t.Errorf("%.40q: %+v, want %q", src, ds, want)
		}
	}
}
