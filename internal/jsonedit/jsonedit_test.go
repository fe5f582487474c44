package jsonedit

import (
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

func apply(t *testing.T, src string, e checker.Edit) string {
	t.Helper()
	out := src[:e.Span.Start] + e.NewText + src[e.Span.End:]
	if _, err := jsonpos.Parse([]byte(out)); err != nil {
		t.Fatalf("edit produced invalid JSON (%s):\n%s", err.Message, out)
	}
	return out
}

func parse(t *testing.T, src string) (*checker.File, *jsonpos.Node) {
	t.Helper()
	root, err := jsonpos.Parse([]byte(src))
	if err != nil {
		t.Fatalf("bad test input: %s", err.Message)
	}
	return checker.NewFile("plugin.json", []byte(src)), root
}

func TestAddToPath(t *testing.T) {
	tests := []struct {
		name, src string
		path      []string
		value     string
		want      string
	}{
		{"append multiline", "{\n  \"capabilities\": {\n    \"fetch\": [\n      \"a.org\"\n    ]\n  }\n}\n",
			[]string{"capabilities", "fetch"}, `"b.org"`,
			"{\n  \"capabilities\": {\n    \"fetch\": [\n      \"a.org\",\n      \"b.org\"\n    ]\n  }\n}\n"},
		{"append inline", "{\n  \"capabilities\": { \"fetch\": [\"a.org\", \"c.org\"] }\n}",
			[]string{"capabilities", "fetch"}, `"b.org"`,
			"{\n  \"capabilities\": { \"fetch\": [\"a.org\", \"c.org\", \"b.org\"] }\n}"},
		{"append inline no space", `{"capabilities":{"fetch":["a.org","c.org"]}}`,
			[]string{"capabilities", "fetch"}, `"b.org"`,
			`{"capabilities":{"fetch":["a.org","c.org","b.org"]}}`},
		{"empty array", "{\n  \"capabilities\": {\n    \"fetch\": []\n  }\n}",
			[]string{"capabilities", "fetch"}, `"b.org"`,
			"{\n  \"capabilities\": {\n    \"fetch\": [\"b.org\"]\n  }\n}"},
		{"create array", "{\n  \"capabilities\": {\n    \"host\": [\"http.fetch\"]\n  }\n}",
			[]string{"capabilities", "fetch"}, `"b.org"`,
			"{\n  \"capabilities\": {\n    \"host\": [\"http.fetch\"],\n    \"fetch\": [\"b.org\"]\n  }\n}"},
		{"create object and array", "{\n    \"name\": \"x\",\n    \"version\": \"1.0.0\"\n}",
			[]string{"capabilities", "fetch"}, `"b.org"`,
			"{\n    \"name\": \"x\",\n    \"version\": \"1.0.0\",\n    \"capabilities\": {\n        \"fetch\": [\"b.org\"]\n    }\n}"},
		{"empty root", "{}", []string{"capabilities", "host"}, `"http.fetch"`,
			"{\n  \"capabilities\": {\n    \"host\": [\"http.fetch\"]\n  }\n}"},
		{"empty capabilities", "{\n  \"capabilities\": {}\n}", []string{"capabilities", "fetch"}, `"b.org"`,
			"{\n  \"capabilities\": {\n    \"fetch\": [\"b.org\"]\n  }\n}"},
		{"tabs and CRLF", "{\r\n\t\"capabilities\": {\r\n\t\t\"fetch\": [\r\n\t\t\t\"a.org\"\r\n\t\t]\r\n\t}\r\n}\r\n",
			[]string{"capabilities", "fetch"}, `"b.org"`,
			"{\r\n\t\"capabilities\": {\r\n\t\t\"fetch\": [\r\n\t\t\t\"a.org\",\r\n\t\t\t\"b.org\"\r\n\t\t]\r\n\t}\r\n}\r\n"},
		{"object element multiline", "{\n  \"fnFetch\": [\n    { \"url\": \"https://a.org/x\", \"body\": \"\" }\n  ]\n}",
			[]string{"fnFetch"}, `{"url": "https://b.org/y", "status": 200, "body": {"todo": "fill in"}}`,
			"{\n  \"fnFetch\": [\n    { \"url\": \"https://a.org/x\", \"body\": \"\" },\n    {\n      \"url\": \"https://b.org/y\",\n      \"status\": 200,\n      \"body\": { \"todo\": \"fill in\" }\n    }\n  ]\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, root := parse(t, tt.src)
			e, err := AddToPath(f, root, tt.path, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if got := apply(t, tt.src, e); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestAddToPathWrongType(t *testing.T) {
	f, root := parse(t, `{"capabilities": {"fetch": "a.org"}}`)
	if _, err := AddToPath(f, root, []string{"capabilities", "fetch"}, `"b.org"`); err == nil {
		t.Fatal("want an error when the path holds a string")
	}
	f, root = parse(t, `{"capabilities": []}`)
	if _, err := AddToPath(f, root, []string{"capabilities", "fetch"}, `"b.org"`); err == nil {
		t.Fatal("want an error when an intermediate is an array")
	}
}

func TestRemoveElement(t *testing.T) {
	tests := []struct {
		name, src, ptr, want string
	}{
		{"middle multiline", "{\n  \"fetch\": [\n    \"a.org\",\n    \"b.org\",\n    \"c.org\"\n  ]\n}", "/fetch/1",
			"{\n  \"fetch\": [\n    \"a.org\",\n    \"c.org\"\n  ]\n}"},
		{"last multiline", "{\n  \"fetch\": [\n    \"a.org\",\n    \"b.org\"\n  ]\n}", "/fetch/1",
			"{\n  \"fetch\": [\n    \"a.org\"\n  ]\n}"},
		{"first inline", `{"fetch": ["a.org", "b.org"]}`, "/fetch/0", `{"fetch": ["b.org"]}`},
		{"last inline", `{"fetch": ["a.org", "b.org"]}`, "/fetch/1", `{"fetch": ["a.org"]}`},
		{"only", `{"fetch": [ "a.org" ]}`, "/fetch/0", `{"fetch": []}`},
		{"member", "{\n  \"a\": 1,\n  \"b\": 2\n}", "/a", "{\n  \"b\": 2\n}"},
		{"object element", "{\"fetch\": [\"a.org\", { \"domain\": \"b.org\", \"fetchMaxBytes\": 1 }, \"c.org\"]}", "/fetch/1",
			"{\"fetch\": [\"a.org\", \"c.org\"]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, root := parse(t, tt.src)
			n, ok := root.Lookup(tt.ptr)
			if !ok {
				t.Fatal("pointer not found")
			}
			e, err := RemoveElement(f, n)
			if err != nil {
				t.Fatal(err)
			}
			if got := apply(t, tt.src, e); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestInsertMemberAndReplace(t *testing.T) {
	src := "{\n  \"name\": \"books\",\n  \"version\": \"1.0.0\"\n}\n"
	f, root := parse(t, src)
	e, err := InsertMember(f, root, "sdk", "1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := apply(t, src, e), "{\n  \"name\": \"books\",\n  \"version\": \"1.0.0\",\n  \"sdk\": 1\n}\n"; got != want {
		t.Errorf("insert: got\n%s", got)
	}
	e, err = Replace(f, root.Get("version"), `"1.0.1"`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := apply(t, src, e), "{\n  \"name\": \"books\",\n  \"version\": \"1.0.1\"\n}\n"; got != want {
		t.Errorf("replace: got\n%s", got)
	}
	// Keys needing escapes are written as JSON, not Go, strings.
	e, err = InsertMember(f, root, "a\"b\u00e9", `"x"`)
	if err != nil {
		t.Fatal(err)
	}
	if got := apply(t, src, e); !contains(got, "\"a\\\"bé\": \"x\"") {
		t.Errorf("escaped key: got\n%s", got)
	}
}

func TestRefusesBrokenContainers(t *testing.T) {
	root, _ := jsonpos.Parse([]byte(`{"fetch": ["a.org"`))
	f := checker.NewFile("plugin.json", []byte(`{"fetch": ["a.org"`))
	if _, err := AppendToArray(f, root.Get("fetch"), `"b.org"`); err == nil {
		t.Fatal("appending to an unclosed array must fail rather than corrupt the file")
	}
	if _, err := AppendToArray(f, root.Get("fetch"), `{bad`); err == nil {
		t.Fatal("invalid value must be refused")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
