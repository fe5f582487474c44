package jspage

import (
	"io/fs"
	"sort"
	"strings"
	"testing"
)

// TestLoweredClassFieldsKeepPositions: a page goja cannot parse as
// esbuild writes it (a class field named get) is analysed from a build
// with class fields lowered; its host calls are found, each at its own
// place in the page, as in the same page with the field renamed (which
// parses at once).
func TestLoweredClassFieldsKeepPositions(t *testing.T) {
	const page = `class Client {
  #base = "https://api.example.com";
  get = (p: string) => http.fetch(this.#base + p);
  static set = http.fetch("https://b.example.com/s");
  list() { return http.fetch("https://c.example.com/list"); }
}
export default async function () {
  return await new Client().get("/books");
}
`
	renamed := strings.NewReplacer("get =", "g3t =", "static set", "static s3t", "().get(", "().g3t(").Replace(page)
	got := positions(describe(page, AnalyzePage("code/p.ts", []byte(page))))
	want := positions(describe(renamed, AnalyzePage("code/p.ts", []byte(renamed))))
	if len(got) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lowered page:\n%s\nrenamed page:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range got {
		if strings.HasPrefix(l, "error") {
			t.Errorf("unexpected %s", l)
		}
	}
	calls := 0
	for _, l := range got {
		if strings.Contains(l, `http.fetch(`) {
			calls++
		}
	}
	if calls != 3 {
		t.Errorf("want 3 fetch calls at their places, got:\n%s", strings.Join(got, "\n"))
	}
}

// positions sorts describe's lines (lowered static fields are
// initialised after the class) and drops the reason a value is unknown
// (it quotes the lowered code: a private field read is a helper call).
func positions(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if a, b := strings.Index(l, " ("), strings.LastIndex(l, ")"); a >= 0 && b > a && strings.Contains(l, " unknown ") {
			l = l[:a] + l[b+1:]
		}
		out[i] = l
	}
	sort.Strings(out)
	return out
}

// TestLoweredInABatch: in a build of several pages, the one goja cannot
// parse is analysed again on its own with class fields lowered; the
// others keep the batch's answers.
func TestLoweredInABatch(t *testing.T) {
	files := map[string]string{
		"code/a.ts": "export default async () => http.fetch(\"https://a.example.com/\");\n",
		"code/b.ts": "class C { get = () => http.fetch(\"https://b.example.com/\"); }\nexport default async () => new C().get();\n",
		"code/c.ts": "export default async () => { let x = 1; x = (1 as any) satisfies number; return http.fetch(\"https://c.example.com/\"); };\n",
	}
	read := func(rel string) ([]byte, error) {
		if s, ok := files[rel]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	pages := AnalyzeBundles([]string{"code/a.ts", "code/b.ts", "code/c.ts"}, read)
	for i, host := range []string{"a", "b", "c"} {
		p := pages[i]
		if len(p.Errors) > 0 || len(p.Calls) != 1 || p.Calls[0].File != p.Path {
			t.Errorf("%s: errors %v, calls %+v", p.Path, p.Errors, p.Calls)
			continue
		}
		src := files[p.Path]
		if got := src[p.Calls[0].Span.Start:p.Calls[0].Span.End]; got != `http.fetch("https://`+host+`.example.com/")` {
			t.Errorf("%s: call at %q", p.Path, got)
		}
	}
}
