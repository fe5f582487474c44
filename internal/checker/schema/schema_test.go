package schema

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// check validates src and returns "text-at-span: message" lines, so a
// test shows both where and what.
func check(t *testing.T, v *Validator, src string) []string {
	t.Helper()
	root, _ := jsonpos.Parse([]byte(src))
	var out []string
	for _, p := range v.Validate(root) {
		if p.Span.Start < 0 || p.Span.End > len(src) || p.Span.Start > p.Span.End {
			t.Fatalf("span %v out of bounds for %q", p.Span, src)
		}
		out = append(out, fmt.Sprintf("%s: %s", src[p.Span.Start:p.Span.End], p.Message))
	}
	return out
}

func TestMessages(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		want      []string
	}{
		{"valid minimal", `{"name":"books","version":"1.2.0"}`, nil},
		{"bad version", `{"name":"books","version":"1.2"}`,
			[]string{`"1.2": "version" must be a semver string like "1.2.0"`}},
		{"typo key", `{"name":"books","version":"1.0.0","tool":[]}`,
			[]string{`"tool": unknown key "tool" (did you mean "tools"?)`}},
		{"unknown key far", `{"name":"books","version":"1.0.0","zzz":1}`,
			[]string{`"zzz": unknown key "zzz" in plugin.json; expected one of "allowInstructions", "capabilities", "description", "name", "nativeTools", "sdk", "tools", "version"`}},
		{"missing required", `{"name":"books"}`,
			[]string{`{: missing required key "version": The plugin's version, a semantic version such as "1.2.0"`}},
		{"bad name", `{"name":"Books","version":"1.0.0"}`,
			[]string{`"Books": "name" must be lower-case letters, digits and '-', starting with a letter or digit, like "books"`}},
		{"sdk 2", `{"name":"a","version":"1.0.0","sdk":2}`,
			[]string{`2: "sdk" must be the number 1 (the only SDK version)`}},
		{"tools not array", `{"name":"a","version":"1.0.0","tools":{}}`,
			[]string{`{}: "tools" must be an array, not an object`}},
		{"tool missing page and bad name", `{"name":"a","version":"1.0.0","tools":[{"name":"look up"}]}`,
			[]string{
				`{: missing required key "page" in "tools[0]": The page that implements the tool, relative to the plugin directory, without extension ("code/lookup-book" resolves to code/lookup-book.ts, then .js)`,
				`"look up": "tools[0].name" must be an identifier (letters, digits and '_', not starting with a digit), like "lookupBook"`,
			}},
		{"tool typo key", `{"name":"a","version":"1.0.0","tools":[{"name":"x","page":"p","descripton":"d"}]}`,
			[]string{`"descripton": unknown key "descripton" (did you mean "description"?)`}},
		{"native names empty", `{"name":"a","version":"1.0.0","sdk":1,"nativeTools":[{"module":"m.js","names":[]}]}`,
			[]string{`[]: "nativeTools[0].names" must be a non-empty array of tool names, like ["tg.sendMessage"]`}},
		{"fetch entry number", `{"name":"a","version":"1.0.0","capabilities":{"fetch":[42]}}`,
			[]string{`42: "capabilities.fetch[0]" must be a domain like "api.example.com" or an object like { "domain": "api.example.com", "fetchMaxBytes": 1048576 }, not a number`}},
		{"fetch object missing domain, limit not integer", `{"name":"a","version":"1.0.0","capabilities":{"fetch":[{"fetchMaxBytes":"1MB"}]}}`,
			[]string{
				`{: missing required key "domain" in "capabilities.fetch[0]": The exact host (lower case, port when not 443), e.g. "api.openlibrary.org"`,
				`"1MB": "capabilities.fetch[0].fetchMaxBytes" must be a whole number of bytes (at most 16777216), not a string`,
			}},
		{"fetch limits out of range are not the schema's", `{"name":"a","version":"1.0.0","capabilities":{"fetch":[{"domain":"x.org","fetchMaxBytes":99999999999,"fetchTimeoutMs":-1}]}}`, nil},
		{"credential into", `{"name":"a","version":"1.0.0","capabilities":{"credentials":[{"name":"k","into":"Authorization"}]}}`,
			[]string{`"Authorization": "capabilities.credentials[0].into" must be an object like { "header": "Authorization", "format": "Bearer {{secret}}" }, not a string`}},
		{"input schema outline", `{"name":"a","version":"1.0.0","tools":[{"name":"x","page":"p","inputJsonSchema":{"type":"obj","required":"isbn"}}]}`,
			[]string{
				`"obj": "tools[0].inputJsonSchema.type" must be a JSON type name: "object", "array", "string", "number", "integer", "boolean" or "null"`,
				`"isbn": "tools[0].inputJsonSchema.required" must be an array, not a string`,
			}},
		{"a duplicate key is not the schema's (json-duplicate-key)", `{"name":"a","version":"1.0.0","name":"b"}`, nil},
		{"truncated: no required noise", `{"name":"a","tools":[{"name":"x"`, nil},
		{"truncated: type errors still", `{"name":"a","sdk":"1",`,
			[]string{`"1": "sdk" must be the number 1 (the only SDK version)`}},
		{"not an object", `[1,2]`, nil},
		{"empty page and module", `{"name":"a","version":"1.0.0","sdk":1,"tools":[{"name":"x","page":""}],"nativeTools":[{"module":"","names":["a.b"]}]}`,
			[]string{
				`"": "tools[0].page" must be a page path like "code/lookup-book"`,
				`"": "nativeTools[0].module" must be a module path like "native/telegram.js"`,
			}},
		{"empty fetch domain string", `{"name":"a","version":"1.0.0","capabilities":{"fetch":[""]}}`,
			[]string{`"": "capabilities.fetch[0]" must be a domain like "api.example.com"`}},
		{"credential not an object", `{"name":"a","version":"1.0.0","capabilities":{"credentials":["api_key"]}}`,
			[]string{`"api_key": "capabilities.credentials[0]" must be an object like { "name": "api_key", "into": { "header": "Authorization", "format": "Bearer {{secret}}" } }, not a string`}},
		{"type list in input schema", `{"name":"a","version":"1.0.0","tools":[{"name":"x","page":"p","inputJsonSchema":{"type":["string","null"]}}]}`, nil},
		{"null where an array goes", `{"name":"a","version":"1.0.0","tools":null}`,
			[]string{`null: "tools" must be an array, not null`}},
		{"unknown key in into", `{"name":"a","version":"1.0.0","capabilities":{"credentials":[{"name":"k","into":{"header":"H","format":"{{secret}}","prefix":"x"}}]}}`,
			[]string{`"prefix": unknown key "prefix" in "capabilities.credentials[0].into"; expected one of "format", "header"`}},
		{"$schema allowed", `{"$schema":"./plugin.schema.json","name":"a","version":"0.1.0-beta.1+b5"}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := check(t, v, tc.src)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestExampleIsValid(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../../testdata/example/books/plugin.json")
	if err != nil {
		t.Fatal(err)
	}
	root, serr := jsonpos.Parse(b)
	if serr != nil {
		t.Fatal(serr)
	}
	if ps := v.Validate(root); len(ps) != 0 {
		t.Errorf("bundled example has schema problems: %+v", ps)
	}
}

// Every property in the schema carries a description: editors show it on
// hover.
func TestEveryPropertyDescribed(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path string, x any)
	walk = func(path string, x any) {
		m, ok := x.(map[string]any)
		if !ok {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for k, p := range props {
				pm, _ := p.(map[string]any)
				_, desc := pm["description"]
				_, ref := pm["$ref"]
				if !desc && !ref {
					t.Errorf("%s/properties/%s has no description", path, k)
				}
				walk(path+"/properties/"+k, p)
			}
		}
		if defs, ok := m["$defs"].(map[string]any); ok {
			for k, d := range defs {
				walk(path+"/$defs/"+k, d)
			}
		}
		for _, k := range []string{"items", "additionalProperties", "if", "then", "else"} {
			walk(path+"/"+k, m[k])
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			arr, _ := m[k].([]any)
			for i, c := range arr {
				walk(fmt.Sprintf("%s/%s/%d", path, k, i), c)
			}
		}
	}
	walk("#", v.doc)
}

func TestSuggest(t *testing.T) {
	cands := []string{"tools", "nativeTools", "capabilities", "name", "sdk"}
	for in, want := range map[string]string{
		"tool": "tools", "NativeTools": "nativeTools", "capabilites": "capabilities",
		"nmae": "name", "sdks": "sdk", "xyz": "", "Name": "name", "nmea": "", "tolos": "tools",
	} {
		if got := suggest.Closest(in, cands); got != want {
			t.Errorf("suggest.Closest(%q) = %q, want %q", in, got, want)
		}
	}
}
