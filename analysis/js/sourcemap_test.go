package js

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"
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

// goSourcemapLookup is the lookup through go-sourcemap (the runner's
// reader) that sourceMap replaced, kept as the reference its answers are
// compared with: the mapping go-sourcemap finds, and the first column
// before col that still finds the same original position and name.
func goSourcemapLookup(data []byte) func(line, col int) (src, srcLine, srcCol int, ok bool) {
	var raw struct {
		Sources []string `json:"sources"`
	}
	c, err := sourcemap.Parse("", data)
	if json.Unmarshal(data, &raw) != nil || err != nil {
		return func(int, int) (int, int, int, bool) { return 0, 0, 0, false }
	}
	index := map[string]int{}
	for i := len(raw.Sources) - 1; i >= 0; i-- {
		index[raw.Sources[i]] = i
	}
	return func(line, col int) (src, srcLine, srcCol int, ok bool) {
		if line < 0 || col < 0 {
			return 0, 0, 0, false
		}
		return goSourcemapSource(c, index, line, col)
	}
}

func goSourcemapSource(c *sourcemap.Consumer, index map[string]int, line, col int) (src, srcLine, srcCol int, ok bool) {
	source, name, l, cc, ok := c.Source(line+1, col)
	if !ok {
		return 0, 0, 0, false
	}
	if src, ok = index[source]; !ok {
		return 0, 0, 0, false
	}
	start := col
	for start > 0 {
		s, n, l2, c2, ok := c.Source(line+1, start-1)
		if !ok || s != source || n != name || l2 != l || cc != c2 {
			break
		}
		start--
	}
	return src, l - 1, cc + (col - start), true
}

// agree compares sourceMap with go-sourcemap at every column of every
// generated line of data (and a little past the ends).
func agree(t *testing.T, what string, data []byte, lines, cols int) {
	t.Helper()
	sm, _ := parseSourceMap(data)
	ref := goSourcemapLookup(data)
	bad := 0
	for line := -1; line <= lines; line++ {
		for col := -1; col <= cols; col++ {
			s1, l1, c1, ok1 := sm.lookup(line, col)
			s2, l2, c2, ok2 := ref(line, col)
			if ok1 != ok2 || (ok1 && (s1 != s2 || l1 != l2 || c1 != c2)) {
				if bad++; bad <= 5 {
					t.Errorf("%s: lookup(%d, %d) = %d %d:%d %v, go-sourcemap %d %d:%d %v", what, line, col, s1, l1, c1, ok1, s2, l2, c2, ok2)
				}
			}
		}
	}
}

// The lookup answers what go-sourcemap answered, on esbuild's maps of
// every page of the repository's test data (one line, and one line per
// statement) and on hand-made maps with what esbuild never writes.
func TestSourceMapAgreesWithGoSourcemap(t *testing.T) {
	var pages []string
	_ = filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && (d.Name() == "node_modules" || d.Name() == "extension") {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.Contains(p, "testdata") && (strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".js")) {
			pages = append(pages, p)
		}
		return nil
	})
	if len(pages) < 100 {
		t.Fatalf("only %d pages found", len(pages))
	}
	maps := 0
	for i, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 64<<10 {
			continue
		}
		res := api.Transform(string(b), api.TransformOptions{
			Loader: api.LoaderTS, Sourcemap: api.SourceMapExternal, MinifyWhitespace: i%2 == 0,
			Target: api.ESNext, Charset: api.CharsetUTF8, Sourcefile: "plugin:p.ts", LogLevel: api.LogLevelSilent,
		})
		if len(res.Errors) > 0 || len(res.Map) == 0 {
			continue
		}
		longest := 0
		for _, l := range strings.Split(string(res.Code), "\n") {
			longest = max(longest, len(l))
		}
		agree(t, p, res.Map, strings.Count(string(res.Code), "\n"), min(longest+2, 3000))
		maps++
	}
	t.Logf("%d esbuild maps", maps)
	for _, m := range []string{
		`{"version":3,"sources":["plugin:a.ts","plugin:b.ts"],"names":["n"],"mappings":"AAAA,KAAK,GCCC;AACN,IDFCA"}`,
		`{"version":3,"sources":["a","b","a"],"names":["x","y"],"mappings":";;EAAE,CAAA,CAAC,CAAA,EAAEA,EAAEC,C,G;;IAAI,IAAI,IAAIC;AAAA,AAAA"}`, // lines without mappings, same column twice, 1-field segments, a repeated source
		`{"version":3,"sources":["a"],"names":[],"mappings":"AAAA,CAAE,CAAE,CAAE;AAAA,CAAE,CAAE,C"}`,
		`{"version":3,"sources":["a"],"names":["\u00e9",7],"mappings":"AAAAA,CAAAC,CAAAD,gBAAgB"}`,
		`{"version":3,"sources":["a"],"mappings":"AAAA,CA$AA"}`, // a byte outside base64 reads as 0
		`{"version":3,"sources":["a"],"mappings":"AAAA,C"}`,
		`{"version":3,"sources":["a"],"mappings":"AAAA,g"}`, // a value cut short
		`{"version":3,"sources":["a"],"mappings":",,;;"}`,
		`{"version":3,"sources":["a"],"mappings":"AAAAAAA,CAAAAAA"}`, // six and seven fields
	} {
		agree(t, m, []byte(m), 6, 40)
	}
}

// FuzzSourceMapLookup compares the lookup with go-sourcemap on any
// mappings text.
func FuzzSourceMapLookup(f *testing.F) {
	for _, s := range []string{"AAAA,KAAK,GCCC;AACN,IDFCA", ";;EAAE,CAAA,CAAC,CAAA,EAAEA,EAAEC,C,G;;IAAI", "AAAAA,CAAAC,CAAAD"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, mappings string, lines uint8) {
		if len(mappings) > 200 {
			return
		}
		data, _ := json.Marshal(map[string]any{"version": 3, "sources": []string{"a", "b", "a"}, "names": []string{"x", "y"}, "mappings": mappings})
		// Only what a source map can be: mappings in order, sources that
		// exist (go-sourcemap's search needs the one, and panics without
		// the other).
		sm, _ := parseSourceMap(data)
		var st checkpoint
		var last segment
		for k := 0; k < sm.n; k++ {
			seg, next, _, _ := sm.decode(st)
			if seg.src < 0 || seg.src > 2 || (k > 0 && (seg.line < last.line || (seg.line == last.line && seg.col < last.col))) {
				return
			}
			st, last = next, seg
		}
		agree(t, mappings, data, int(lines%8), 24)
	})
}
