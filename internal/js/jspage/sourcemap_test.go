package jspage

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

func TestSourceMapLookup(t *testing.T) {
	// Line 0: column 0 → a.ts 0:0, column 5 → a.ts 0:5, column 8 → b.ts
	// 1:6. Line 1: column 0 → b.ts 2:0, column 4 → a.ts 0:1 named "n".
	sm, sources := parseSourceMap([]byte(`{"version":3,"sources":["plugin:a.ts","plugin:b.ts"],"names":["n"],"mappings":"AAAA,KAAK,GCCC;AACN,IDFCA"}`))
	if strings.Join(sources, " ") != "plugin:a.ts plugin:b.ts" {
		t.Fatalf("sources %q", sources)
	}
	type pos struct{ src, line, col int }
	for _, tc := range []struct {
		line, col int
		want      pos
		ok        bool
	}{
		{0, 0, pos{0, 0, 0}, true},
		{0, 3, pos{0, 0, 3}, true}, // inside the first mapping: plus the distance
		{0, 5, pos{0, 0, 5}, true},
		{0, 7, pos{0, 0, 7}, true},
		{0, 8, pos{1, 1, 6}, true},
		{0, 20, pos{1, 1, 18}, true},
		{1, 0, pos{1, 2, 0}, true},
		{1, 3, pos{1, 2, 3}, true},
		{1, 4, pos{0, 0, 1}, true},
		{1, 6, pos{0, 0, 3}, true},
		{2, 0, pos{}, false}, // no such line
		{-1, 0, pos{}, false},
		{0, -1, pos{}, false},
	} {
		src, l, c, ok := sm.lookup(tc.line, tc.col)
		if ok != tc.ok || (ok && (pos{src, l, c}) != tc.want) {
			t.Errorf("lookup(%d, %d) = %d %d:%d %v, want %+v %v", tc.line, tc.col, src, l, c, ok, tc.want, tc.ok)
		}
	}
	for _, bad := range []string{``, `{`, `{"version":3,"sources":["a"],"mappings":""}`, `{"version":4,"sources":["a"],"mappings":"AAAA"}`} {
		sm, _ := parseSourceMap([]byte(bad))
		if _, _, _, ok := sm.lookup(0, 0); ok {
			t.Errorf("a map that does not read (%q) maps a position", bad)
		}
	}
}

// TestEsbuildMapsStartLinesAtColumnZero pins what lookup relies on (see
// its comment): esbuild starts every generated line after its first
// mapping with a mapping at column 0 ("A": a VLQ 0), also the lines inside
// a template literal, so that go-sourcemap never answers a position with
// a mapping of an earlier line.
func TestEsbuildMapsStartLinesAtColumnZero(t *testing.T) {
	src := "const a = `one\ntwo ${1 + 2}\n\nthree`;\nexport default async function run(i: { q: string }) {\n  return { type: 'text', value: a + `\n${i.q}\n` + \"😀\" };\n}\n"
	res := api.Transform(src, api.TransformOptions{
		Loader: api.LoaderTS, Sourcemap: api.SourceMapExternal, MinifyWhitespace: true,
		Target: api.ESNext, Charset: api.CharsetUTF8, Sourcefile: "plugin:p.ts",
	})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors[0].Text)
	}
	var m struct{ Mappings string }
	if err := json.Unmarshal(res.Map, &m); err != nil {
		t.Fatal(err)
	}
	groups := strings.Split(m.Mappings, ";")
	if len(groups) < 4 {
		t.Fatalf("the output should span several lines: %q", res.Code)
	}
	started := false
	for i, g := range groups[:len(groups)-1] { // the last line is empty
		started = started || g != ""
		if started && !strings.HasPrefix(g, "A") {
			t.Errorf("generated line %d does not start with a mapping at column 0: %q", i, g)
		}
	}
}
