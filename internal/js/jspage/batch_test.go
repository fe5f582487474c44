package jspage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// pluginPages lists the page files of every plugin under root (files
// under a code/ directory that are not in a lib/ directory) with a reader
// of that plugin's files.
func pluginPages(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) < 3 || parts[1] != "code" || strings.Contains(rel, "/lib/") {
			return nil
		}
		switch filepath.Ext(p) {
		case ".ts", ".js", ".mjs", ".tsx":
			out[parts[0]] = append(out[parts[0]], strings.Join(parts[1:], "/"))
		}
		return nil
	})
	return out
}

func dirReader(dir string) ReadFunc {
	return func(rel string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) || (err != nil && strings.Contains(err.Error(), "is a directory")) {
			return nil, fs.ErrNotExist
		}
		return b, err
	}
}

// TestBundlesEqualOneByOne: analysing every page of a plugin in one build
// gives, page for page, what analysing each on its own gives (calls,
// values, positions, errors, files read, import sites), on the corpus and
// on the golden testdata plugins (syntax errors, missing and escaping
// imports, cycles included).
func TestBundlesEqualOneByOne(t *testing.T) {
	compared := 0
	for _, root := range []string{"../../../testdata/corpus", "../../../testdata/plugins"} {
		for plugin, pages := range pluginPages(t, root) {
			sort.Strings(pages)
			read := dirReader(filepath.Join(root, plugin))
			batch := AnalyzeBundles(pages, read)
			if len(batch) != len(pages) {
				t.Fatalf("%s: %d answers for %d pages", plugin, len(batch), len(pages))
			}
			for i, rel := range pages {
				one := analyze(rel, read, true)
				sortFiles(one)
				sortFiles(batch[i])
				if !reflect.DeepEqual(one, batch[i]) {
					src, _ := read(rel)
					t.Errorf("%s/%s: in one build with the other pages:\n%s\nalone:\n%s\nfiles %v / %v", plugin, rel,
						strings.Join(describe(string(src), batch[i]), "\n"), strings.Join(describe(string(src), one), "\n"), batch[i].Files, one.Files)
				}
				compared++
			}
		}
	}
	t.Logf("%d pages compared", compared)
	if compared < 60 {
		t.Errorf("only %d pages compared", compared)
	}
}

// sortFiles puts the files read after the page in path order (the order
// esbuild reads them in is its own).
func sortFiles(p *Page) {
	if len(p.Files) > 1 {
		rest := p.Files[1:]
		sort.Slice(rest, func(a, b int) bool {
			if rest[a].Rel != rest[b].Rel {
				return rest[a].Rel < rest[b].Rel
			}
			return !rest[a].Missing && rest[b].Missing
		})
	}
}

// TestAnswersDoNotDependOnWorkingDirectory: esbuild renames an entry
// "code/x.ts" to "./code/x.ts" when the process's working directory holds
// that file, which is where VS Code starts the server (the workspace
// folder) and where `plugin-lsp check .` runs. Every page must then be
// analysed exactly as from anywhere else: before the fix, every position
// on such a page fell to 0:0 (real VS Code showed the page's
// fetch-undeclared-domain at 1:1).
func TestAnswersDoNotDependOnWorkingDirectory(t *testing.T) {
	var roots []string
	for _, r := range []string{"../../../testdata/example", "../../../testdata/corpus", "../../../testdata/plugins"} {
		abs, err := filepath.Abs(r)
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, abs)
	}
	compared, withCalls := 0, 0
	for _, root := range roots {
		for plugin, pages := range pluginPages(t, root) {
			sort.Strings(pages)
			dir := filepath.Join(root, plugin)
			read := dirReader(dir)
			t.Chdir(root) // not a plugin's folder
			elsewhere := AnalyzeBundles(pages, read)
			var alone []*Page
			for _, rel := range pages {
				alone = append(alone, AnalyzeBundles([]string{rel}, read)[0])
			}
			t.Chdir(dir)
			here := AnalyzeBundles(pages, read)
			for i, rel := range pages {
				hereAlone := AnalyzeBundles([]string{rel}, read)[0]
				for _, p := range []*Page{elsewhere[i], here[i], alone[i], hereAlone} {
					sortFiles(p)
				}
				if !reflect.DeepEqual(elsewhere[i], here[i]) {
					t.Errorf("%s/%s: from the plugin's folder:\n%s\nfrom elsewhere:\n%s", plugin, rel, outline(here[i]), outline(elsewhere[i]))
				}
				if !reflect.DeepEqual(alone[i], hereAlone) {
					t.Errorf("%s/%s alone: from the plugin's folder:\n%s\nfrom elsewhere:\n%s", plugin, rel, outline(hereAlone), outline(alone[i]))
				}
				compared++
				if len(here[i].CallSites) > 0 {
					withCalls++
				}
			}
		}
	}
	t.Logf("%d pages compared, %d with call sites", compared, withCalls)
	if compared < 60 || withCalls < 30 {
		t.Errorf("only %d pages compared, %d with call sites", compared, withCalls)
	}
}

// outline is what a page's analysis found where, without reading the
// texts (a span may be one of another file).
func outline(p *Page) string {
	var b strings.Builder
	for _, f := range p.Files {
		fmt.Fprintf(&b, "  file %s missing=%v\n", f.Rel, f.Missing)
	}
	for _, c := range p.Calls {
		fmt.Fprintf(&b, "  call %s.%s in %s at %d-%d\n", c.Object, c.Method, c.File, c.Span.Start, c.Span.End)
	}
	fmt.Fprintf(&b, "  %d call sites, %d errors", len(p.CallSites), len(p.Errors))
	return b.String()
}

// Pages go in builds of at most BatchBytes of text (a build holds every
// file's syntax tree at once); a larger page is built alone. The answers
// are those of one build per page, a shared lib file included.
func TestBatchesAreBoundedBySize(t *testing.T) {
	lib := "export const API = \"https://api.example.org\";\n"
	page := func(size int) []byte {
		var b strings.Builder
		b.WriteString("import { API } from \"./lib/api\";\n")
		for n := 0; b.Len() < size; n++ {
			b.WriteString("function h" + itoa(n) + "(x: string): string { return x.trim(); }\n")
		}
		b.WriteString("export default async function tool() { return (await http.fetch(API + \"/x\")).text(); }\n")
		return []byte(b.String())
	}
	files := map[string][]byte{"code/lib/api.ts": []byte(lib)}
	sizes := []int{1 << 10, BatchBytes + 1, 1 << 10, BatchBytes / 2, BatchBytes / 2}
	var rels []string
	for i, n := range sizes {
		rel := "code/p" + itoa(i) + ".ts"
		files[rel] = page(n)
		rels = append(rels, rel)
	}
	read := func(rel string) ([]byte, error) {
		if b, ok := files[rel]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}
	var got [][]string
	for _, b := range batches(rels, read) {
		got = append(got, b.entries)
	}
	want := [][]string{{rels[0]}, {rels[1]}, {rels[2], rels[3]}, {rels[4]}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("batches %v, want %v", got, want)
	}
	all := AnalyzeBundles(rels, read)
	for i, rel := range rels {
		one := AnalyzeBundles([]string{rel}, read)[0]
		sortFiles(one)
		sortFiles(all[i])
		if !reflect.DeepEqual(one, all[i]) {
			t.Errorf("%s: batched and alone differ", rel)
		}
		if len(one.Calls) != 1 || one.Calls[0].URL == nil || one.Calls[0].URL.Value != "https://api.example.org/x" {
			t.Errorf("%s: calls %+v", rel, one.Calls)
		}
	}
}

// Two analyses of pages over BatchBytes do not run at once: while the
// first one is inside its build (held in its read), the second does not
// start its build (the read of its page for the build waits).
func TestBigAnalysesOneAtATime(t *testing.T) {
	big := []byte("export default async function tool() { return 1; }\n" + strings.Repeat("// filler\n", BatchBytes/10+1))
	var mu sync.Mutex
	reads := map[string]int{}
	inside := make(chan string, 2)
	release := make(chan struct{})
	read := func(rel string) ([]byte, error) {
		mu.Lock()
		reads[rel]++
		n := reads[rel]
		mu.Unlock()
		if n == 2 { // batches read it once; this is the build's read
			inside <- rel
			if rel == "code/a.ts" {
				<-release
			}
		}
		return big, nil
	}
	done := make(chan struct{}, 2)
	go func() { AnalyzeBundles([]string{"code/a.ts"}, read); done <- struct{}{} }()
	if got := <-inside; got != "code/a.ts" {
		t.Fatalf("first inside: %s", got)
	}
	go func() { AnalyzeBundles([]string{"code/b.ts"}, read); done <- struct{}{} }()
	select {
	case got := <-inside:
		t.Fatalf("%s started its build while code/a.ts was in its own", got)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	if got := <-inside; got != "code/b.ts" {
		t.Fatalf("second inside: %s", got)
	}
	<-done
	<-done
}
