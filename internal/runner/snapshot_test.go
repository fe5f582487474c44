package runner

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

// countingFS counts the reads of each path through an FS.
type countingFS struct {
	checker.FS
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return c.FS.ReadFile(name)
}

// TestPluginSnapshotConcurrent: one loaded Plugin is shared, without a
// lock of the caller's, by what the language server and the runner do at
// once: the check (every rule, esbuild's concurrent loaders), hover- and
// definition-like reads (resolve a page, read it, convert positions,
// Cached/Exists), and the runner's reads (compile through esbuild, place
// a host call, a return and stack frames). Run with -race: any lazily
// filled map or line index without a guard is a reported race. Every
// goroutine must see the same answers as a sequential pass over another
// Plugin of the same directory, and each file is read from the FS once
// (the Plugin is a snapshot).
func TestPluginSnapshotConcurrent(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "example", "books")
	type answers struct {
		diags   []string
		pages   []string
		pos     []checker.Position
		code    []string
		placed  []string
		missing bool
	}
	do := func(p *checker.Plugin, cache *checker.Cache, part int) (a answers) {
		if part < 0 || part == 0 {
			for _, d := range checker.Run(p, rules.All(), nil, cache) {
				a.diags = append(a.diags, fmt.Sprintf("%s %s %v %s", d.Code, d.File, d.Span, d.Message))
			}
		}
		for _, t := range p.Manifest.Tools {
			page, _ := checker.Str(t.Page)
			rel, ok := p.ResolvePage(page)
			if !ok {
				t := fmt.Sprintf("page %s not resolved", page)
				a.pages = append(a.pages, t)
				continue
			}
			a.pages = append(a.pages, rel)
			if part < 0 || part == 1 { // hover/definition
				f := p.File(rel)
				if f == nil {
					a.pages = append(a.pages, rel+" unreadable")
					continue
				}
				a.pos = append(a.pos, f.Position(len(f.Text)/2), f.Position(len(f.Text)))
				if c, ok := p.Cached(rel); !ok || c != f {
					a.pages = append(a.pages, rel+" not cached after a read")
				}
				a.pos = append(a.pos, p.ManifestFile.Position(checker.SpanOf(t.Page).Start))
			}
			if part < 0 || part == 2 { // runner
				prog, err := Compile(p, rel)
				if err != nil {
					a.code = append(a.code, err.Error())
					continue
				}
				a.code = append(a.code, prog.Code)
				l, c, ok := hostCallPosition(p, rel, 1, 1, "http.fetch")
				a.placed = append(a.placed, fmt.Sprint(l, c, ok))
				l, c, ok = returnPosition(p, rel)
				a.placed = append(a.placed, fmt.Sprint(l, c, ok))
				a.placed = append(a.placed, calleeFrames(p, "Error: x\n    at f ("+rel+":3:1)", false))
			}
		}
		a.missing = p.Exists("code/nope.ts")
		return a
	}

	ref, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := [3]answers{do(ref, checker.NewCache(), 0), do(ref, nil, 1), do(ref, nil, 2)}
	if len(want[0].diags) == 0 && len(want[2].code) == 0 {
		t.Fatal("the reference pass saw nothing: the test would prove nothing")
	}
	if len(want[2].code) != len(ref.Manifest.Tools) {
		t.Fatalf("the reference pass compiled %d of %d pages: %v", len(want[2].code), len(ref.Manifest.Tools), want[2].code)
	}

	for round := 0; round < 3; round++ {
		fsys := &countingFS{FS: checker.OSFS{}, reads: map[string]int{}}
		p, err := checker.Load(fsys, dir) // fresh: every lazy read races
		if err != nil {
			t.Fatal(err)
		}
		cache := checker.NewCache() // each check its own: the Plugin is what is shared
		const per = 3
		got := make([]answers, 3*per)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				c := cache
				if i%per != 0 {
					c = checker.NewCache()
				}
				got[i] = do(p, c, i%3)
			}()
		}
		close(start)
		wg.Wait()
		for i, g := range got {
			if !reflect.DeepEqual(g, want[i%3]) {
				t.Errorf("round %d, goroutine %d (part %d) saw other answers than a sequential pass:\n got %+v\nwant %+v", round, i, i%3, g, want[i%3])
			}
		}
		for name, n := range fsys.reads {
			if n != 1 {
				t.Errorf("round %d: %s read %d times: a snapshot reads each file once", round, name, n)
			}
		}
		if len(fsys.reads) < 1+len(p.Manifest.Tools) {
			t.Errorf("round %d: only %d files read through the Plugin: %v", round, len(fsys.reads), fsys.reads)
		}
	}
}
