package lsp

import (
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// cacheHas reports whether the cache of the plugin in dir holds the
// analysis of kind for text.
func (h *harness) cacheHas(dir, kind, text string) bool {
	h.srv.mu.Lock()
	ps := h.srv.plugins[dir]
	h.srv.mu.Unlock()
	if ps == nil {
		h.t.Fatalf("no plugin at %s", dir)
	}
	return ps.cache.Has(kind, []byte(text))
}

// A page typed in the editor is analysed once per version; the cache keeps
// the version the last check read and the one before it (undo), never the
// older ones, and nothing of a buffer once it is closed.
func TestClosedAndSupersededVersionsLeaveTheCache(t *testing.T) {
	dir := copyExample(t)
	page := filepath.Join(dir, "code", "lookup-book.ts")
	disk := mustRead(t, page)
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.waitChecked(dir)
	if !h.cacheHas(dir, "page:code/lookup-book.ts", disk) {
		t.Fatal("the page on disk was not analysed through the cache")
	}
	var versions []string
	for i := 0; i < 5; i++ {
		versions = append(versions, strings.Replace(disk, "https://api.openlibrary.org", "https://v"+string(rune('a'+i))+".example.org", 1))
	}
	h.openText(page, versions[0])
	h.waitChecked(dir)
	for i, v := range versions[1:] {
		h.change(page, int32(i+2), v)
		h.waitChecked(dir)
	}
	last := versions[len(versions)-1]
	if !h.cacheHas(dir, "page:code/lookup-book.ts", last) {
		t.Fatal("the current version is not cached")
	}
	if !h.cacheHas(dir, "page:code/lookup-book.ts", versions[len(versions)-2]) {
		t.Error("the version before the current one is not kept (undo)")
	}
	for i, v := range append([]string{disk}, versions[:len(versions)-2]...) {
		if h.cacheHas(dir, "page:code/lookup-book.ts", v) {
			t.Errorf("superseded version %d is still cached", i)
		}
	}
	// The closed buffer differs from the disk: its analyses are gone
	// before the check that reads the disk starts.
	atStart := make(chan bool, 1)
	h.srv.mu.Lock()
	h.srv.checking = func(string) {
		select {
		case atStart <- h.cacheHas(dir, "page:code/lookup-book.ts", last):
		default:
		}
	}
	h.srv.mu.Unlock()
	if err := h.server.DidClose(h.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(page)}}); err != nil {
		t.Fatal(err)
	}
	h.waitChecked(dir)
	h.srv.mu.Lock()
	h.srv.checking = nil
	h.srv.mu.Unlock()
	if <-atStart {
		t.Error("the closed buffer's analysis was still cached when the next check started")
	}
	if h.cacheHas(dir, "page:code/lookup-book.ts", last) || h.cacheHas(dir, "page:code/lookup-book.ts", versions[len(versions)-2]) {
		t.Error("the closed buffer's analyses are still cached")
	}
	if !h.cacheHas(dir, "page:code/lookup-book.ts", disk) {
		t.Error("after close the page on disk is checked again, through the cache")
	}
}

// The soft memory limit starts at Options.MemoryLimit and rises with the
// largest manifest checked, never falls; without the option it is not set.
func TestMemoryLimitFollowsTheLargestManifest(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	s := New(Options{MemoryLimit: 100 << 20})
	s.fitMemoryLimit(0)
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Fatalf("base limit %d", got)
	}
	s.fitMemoryLimit(25 << 20)
	if got := debug.SetMemoryLimit(-1); got != manifestHeapFactor*(25<<20) {
		t.Fatalf("limit for a 25 MB manifest: %d", got)
	}
	s.fitMemoryLimit(1 << 10)
	if got := debug.SetMemoryLimit(-1); got != manifestHeapFactor*(25<<20) {
		t.Fatalf("the limit fell to %d", got)
	}
	debug.SetMemoryLimit(prev)
	New(Options{}).fitMemoryLimit(25 << 20)
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Fatalf("no MemoryLimit, yet the limit changed to %d", got)
	}
}

// An open document costs one copy of its text. The decoder's strings
// share the memory of the whole message (go.lsp.dev/protocol decodes
// without copying): a URI or path kept from didOpen or didChange kept the
// message, text included, alive as long as the document was open.
func TestAnOpenDocumentHoldsOneCopyOfItsText(t *testing.T) {
	dir := t.TempDir() // no plugin: the document is only held
	path := filepath.Join(dir, "big.ts")
	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	const size = 8 << 20
	text := func(c string) string { return "// " + strings.Repeat(c, size) + "\n" }
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	held := func(version int32) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			h.srv.mu.Lock()
			d := h.srv.docs[path]
			h.srv.mu.Unlock()
			if d != nil && d.version == version {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("version %d of the document never arrived", version)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	base := heap()
	h.openText(path, text("a"))
	held(1)
	if grown := heap() - base; grown > size*3/2 {
		t.Errorf("an open %d MB document holds %.1f MB", size>>20, float64(grown)/(1<<20))
	}
	h.change(path, 2, text("b"))
	held(2)
	if grown := heap() - base; grown > size*3/2 {
		t.Errorf("a changed %d MB document holds %.1f MB", size>>20, float64(grown)/(1<<20))
	}
}
