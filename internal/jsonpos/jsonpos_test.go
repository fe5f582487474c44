package jsonpos

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spanText returns the source text of a node's value.
func spanText(src string, n *Node) string { return src[n.Span.Start:n.Span.End] }

func TestSpans(t *testing.T) {
	src := "{\n  \"name\" : \"bööks\",\n  \"n\": -1.5e3, \"ok\": true, \"nil\": null,\n  \"arr\": [1, {\"k\": \"v\"}, []],\n  \"esc\": \"a\\u00e9\\\"b\"\n}\n"
	root, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if root.Kind != Object || !root.Closed || spanText(src, root) != strings.TrimSpace(src) {
		t.Fatalf("root: %+v", root)
	}
	checks := []struct {
		ptr, key, text string
		kind           Kind
	}{
		{"/name", `"name"`, `"bööks"`, String},
		{"/n", `"n"`, `-1.5e3`, Number},
		{"/ok", `"ok"`, `true`, Bool},
		{"/nil", `"nil"`, `null`, Null},
		{"/arr", `"arr"`, `[1, {"k": "v"}, []]`, Array},
		{"/arr/0", ``, `1`, Number},
		{"/arr/1", ``, `{"k": "v"}`, Object},
		{"/arr/1/k", `"k"`, `"v"`, String},
		{"/arr/2", ``, `[]`, Array},
		{"/esc", `"esc"`, `"a\u00e9\"b"`, String},
	}
	for _, c := range checks {
		n, ok := root.Lookup(c.ptr)
		if !ok {
			t.Fatalf("%s not found", c.ptr)
		}
		if n.Kind != c.kind || spanText(src, n) != c.text || src[n.KeySpan.Start:n.KeySpan.End] != c.key {
			t.Errorf("%s: kind %v text %q key %q", c.ptr, n.Kind, spanText(src, n), src[n.KeySpan.Start:n.KeySpan.End])
		}
		if n.Pointer() != c.ptr {
			t.Errorf("Pointer() = %q, want %q", n.Pointer(), c.ptr)
		}
	}
	if s := root.Get("name").Str; s != "bööks" {
		t.Errorf("Str = %q", s)
	}
	if s := root.Get("esc").Str; s != "aé\"b" {
		t.Errorf("escaped Str = %q", s)
	}
	if v, ok := root.Get("n").Int(); !ok || v != -1500 {
		t.Errorf("Int = %d %v", v, ok)
	}
	if _, ok := root.Get("name").Int(); ok {
		t.Error("Int of a string")
	}
}

func TestTruncatedKeepsPrefix(t *testing.T) {
	src := `{"name": "books", "tools": [{"name": "a", "page": "p"}, {"name": "b", "pa`
	root, err := Parse([]byte(src))
	if err == nil || err.Offset != len(src) || !strings.Contains(err.Message, "incomplete") {
		t.Fatalf("err = %v", err)
	}
	if root.Closed {
		t.Error("root should be open")
	}
	tools := root.Get("tools")
	if tools == nil || len(tools.Elems) != 2 || tools.Span.End != len(src) {
		t.Fatalf("tools: %+v", tools)
	}
	if tools.Elems[0].Get("page").Str != "p" || !tools.Elems[0].Closed || tools.Elems[1].Closed {
		t.Errorf("elements: %+v", tools.Elems)
	}
	// A key without its value stays, pointing at the key.
	src2 := `{"name": "x", "version":`
	root2, _ := Parse([]byte(src2))
	v := root2.Get("version")
	if v == nil || v.Kind != Invalid || src2[v.KeySpan.Start:v.KeySpan.End] != `"version"` {
		t.Errorf("pending key: %+v", v)
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		src string
		off int
	}{
		{``, 0},
		{`   `, 3},
		{`{"a": 1,}`, 7}, // on the comma (manifest-syntax explains trailing commas)
		{`{"a" 1}`, 5},
		{`{'a': 1}`, 1},
		{`{"a": 1} x`, 9},
		{"{\"a\": \"b\nc\"}", 8},
		{`[1 2]`, 3},
	} {
		_, err := Parse([]byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if err.Offset != tc.off {
			t.Errorf("%q: offset %d (%s), want %d", tc.src, err.Offset, err.Message, tc.off)
		}
	}
}

func TestDuplicateKeys(t *testing.T) {
	src := "{\"a\": 1, \"b\": {\"x\": 1, \"x\": 2},\n \"\\u0061\": 3, \"c\": [{\"k\": 1, \"k\": 1, \"k\": 2}]}"
	root, serr := Parse([]byte(src))
	if serr != nil {
		t.Fatal(serr)
	}
	d := DuplicateKeys(root)
	var got []string
	for _, x := range d {
		got = append(got, fmt.Sprintf("%s %d<%d", x.Dup.Pointer(), x.First.KeySpan.Start, x.Dup.KeySpan.Start))
	}
	want := []string{"/b/x 15<23", "/a 1<33", "/c/0/k 53<61", "/c/0/k 53<69"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("duplicates %v, want %v", got, want)
	}
	if v, _ := root.Get("a").Int(); v != 3 {
		t.Errorf("Get returns the last duplicate, got %d", v)
	}
	err := CheckDuplicatesIn([]byte(src))
	var de *DuplicateKeyError
	if !errors.As(err, &de) || de.FirstLine != 1 || de.FirstCol != 16 || de.DupLine != 1 || de.DupCol != 24 || de.Key != "x" {
		t.Fatalf("CheckDuplicatesIn: %#v", err)
	}
	if msg := err.Error(); msg != `1:24: duplicate key "x" (/b/x): first written at 1:16, again at 1:24; a key must appear once (readers disagree on which one counts), so the file is refused: keep one` {
		t.Errorf("message %q", msg)
	}
	top := NewDuplicateKeyError([]byte(src), d[1])
	if top.DupLine != 2 || top.DupCol != 2 || !strings.HasPrefix(top.Message(), `duplicate key "a": first written at 1:2, again at 2:2;`) {
		t.Errorf("top-level: %+v %s", top, top.Message())
	}
	for _, ok := range []string{`{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}`, `[]`, `{`, ``} {
		if err := CheckDuplicatesIn([]byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	// Small objects are compared pairwise, large ones with a map: the same
	// answer either way (each duplicate with the earliest key).
	for _, n := range []int{5, 16, 17, 60} {
		var sb strings.Builder
		sb.WriteString("{")
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, `"k%d": %d`, i%4, i)
		}
		sb.WriteString("}")
		root, _ := Parse([]byte(sb.String()))
		ds := DuplicateKeys(root)
		if len(ds) != n-4 {
			t.Fatalf("%d members: %d duplicates", n, len(ds))
		}
		for _, d := range ds {
			if d.First.Key != d.Dup.Key || d.First.Index != d.Dup.Index%4 {
				t.Fatalf("%d members: %s at %d paired with %d", n, d.Dup.Key, d.Dup.Index, d.First.Index)
			}
		}
	}
	// Deep nesting: the walk is iterative.
	deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	if err := CheckDuplicatesIn([]byte(deep)); err != nil {
		t.Errorf("deep: %v", err)
	}
}

func TestLookupEscapes(t *testing.T) {
	root, _ := Parse([]byte(`{"a/b": {"c~d": [10, 20]}}`))
	n, ok := root.Lookup("/a~1b/c~0d/1")
	if !ok || n.Raw != "20" || n.Pointer() != "/a~1b/c~0d/1" {
		t.Fatalf("%+v %v", n, ok)
	}
	if n, ok := root.Lookup("/a~1b/missing"); ok || n.Key != "a/b" {
		t.Errorf("partial lookup: %+v %v", n, ok)
	}
	var nilNode *Node
	if nilNode.Get("x") != nil || nilNode.Len() != 0 || nilNode.Children() != nil || nilNode.IsString() {
		t.Error("nil node helpers")
	}
}

// Interface agrees with encoding/json on every valid testdata manifest.
func TestInterfaceMatchesEncodingJSON(t *testing.T) {
	for _, p := range seedFiles(t) {
		b, _ := os.ReadFile(p)
		root, err := Parse(b)
		if err != nil {
			continue
		}
		var want any
		if json.Unmarshal(b, &want) != nil {
			continue
		}
		g, _ := json.Marshal(root.Interface())
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: Interface differs\n got %s\nwant %s", p, g, w)
		}
	}
}

func seedFiles(t testing.TB) []string {
	paths, _ := filepath.Glob("../../testdata/plugins/*/*.json")
	more, _ := filepath.Glob("../../testdata/example/*/*.json")
	return append(paths, more...)
}

// Parse never panics; every span lies inside the input and inside its
// parent; a scalar's span text re-parses to the same value.
func FuzzParse(f *testing.F) {
	for _, p := range seedFiles(f) {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	for _, s := range []string{"", "{", `{"a":[1,2,{"b":null}]}`, `"\ud800"`, "\xff", `{"a":1,"a":2}`, "[[[[[[[["} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, serr := Parse(data)
		if serr != nil && (serr.Offset < 0 || serr.Offset > len(data)) {
			t.Fatalf("error offset %d outside %d bytes", serr.Offset, len(data))
		}
		var walk func(n, parent *Node)
		walk = func(n, parent *Node) {
			if n.Span.Start < 0 || n.Span.End > len(data) || n.Span.Start > n.Span.End {
				t.Fatalf("span %v outside %d bytes", n.Span, len(data))
			}
			if parent != nil && (n.Span.Start < parent.Span.Start || n.Span.End > parent.Span.End) {
				t.Fatalf("child span %v outside parent %v", n.Span, parent.Span)
			}
			if n.KeySpan.End > n.KeySpan.Start {
				var k string
				if err := json.Unmarshal(data[n.KeySpan.Start:n.KeySpan.End], &k); err != nil || k != n.Key {
					t.Fatalf("key span %q does not decode to %q", data[n.KeySpan.Start:n.KeySpan.End], n.Key)
				}
			}
			switch n.Kind {
			case String, Number, Bool, Null:
				sub, err := Parse(data[n.Span.Start:n.Span.End])
				if err != nil || sub.Kind != n.Kind || sub.Str != n.Str || sub.Raw != n.Raw || sub.Bool != n.Bool {
					t.Fatalf("scalar %q does not re-parse: %v", data[n.Span.Start:n.Span.End], err)
				}
			}
			for _, c := range n.Children() {
				if c.Parent != n {
					t.Fatal("parent link")
				}
				walk(c, n)
			}
		}
		if root != nil {
			walk(root, nil)
		}
	})
}

// BenchmarkDuplicateKeys: the check every reader runs, on a manifest of
// 1,000 tools (about 250 KB, 7,000 objects).
func BenchmarkDuplicateKeys(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"name": "big", "version": "1.0.0", "tools": [`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"name": "tool%d", "page": "code/t%d", "description": "Tool number %d", "inputJsonSchema": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "array", "items": {"type": "string"}}}, "required": ["a"]}}`, i, i, i)
	}
	sb.WriteString(`]}`)
	data := []byte(sb.String())
	root, serr := Parse(data)
	if serr != nil {
		b.Fatal(serr)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := DuplicateKeys(root); len(ds) != 0 {
			b.Fatal(ds)
		}
	}
}
