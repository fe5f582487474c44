package jspage

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// soakShapedPage is a page of about size bytes shaped like the language
// server's soak pages (internal/lsp/soak_test.go): helpers an author would write,
// and a default export that fetches.
func soakShapedPage(size int) string {
	var b strings.Builder
	b.WriteString("// page: generated for the soak\nconst API = \"https://api.example.org\";\n\n")
	for n := 0; b.Len() < size-400; n++ {
		fmt.Fprintf(&b, "function helper%d(x: string, n: number): string {\n  const parts = x.split(\",\").map((p) => p.trim());\n  return parts.slice(0, n).join(\"-\") + \"%d\";\n}\n\n", n, n)
	}
	b.WriteString("export default async function tool(input: { q: string }) {\n  const res = await http.fetch(`${API}/search?q=${encodeURIComponent(input.q)}`);\n  if (!res.ok) throw new Error(`status ${res.status}`);\n  return { type: \"markdown\", text: await res.text() };\n}\n")
	return b.String()
}

// liveHeap is the heap the last collection marked live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// gcWatch reads the live heap after every collection (a cleanup that
// arms itself again), keeping the highest.
type gcWatch struct {
	mu   sync.Mutex
	peak uint64
	done bool
}

func (w *gcWatch) arm() {
	runtime.AddCleanup(new(struct {
		p   *int
		pad [8]uint64
	}), func(w *gcWatch) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.done {
			return
		}
		w.peak = max(w.peak, liveHeap())
		w.arm()
	}, w)
}

func (w *gcWatch) stop() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	return w.peak
}

// BenchmarkPageLiveHeap is the live heap of one analysis of a large page
// (the soak's 2 MB page, and a 256 KB one), the figure that sets the
// language server's peak. Run it with -benchtime=1x (one analysis of
// the 2 MB page takes seconds).
//
// The collector runs at GOGC=10, and the live heap it marks after every
// collection is read (a cleanup re-armed at each collection). Reported,
// in MB above the live heap before the analysis (the page's text is
// counted there): MB-live-peak, the highest of those readings; then the
// analysis runs again with a collection forced at the end of each phase
// (hooked in page.go): MB-<phase> is the live heap then, MB-result what
// the answer keeps, MB-live-peak-phased the highest reading of that run
// (forced collections change the timing of the run), MB-in-build the
// highest reading while esbuild built. With
// PLUGIN_LSP_HEAPPROFILE=DIR, an -inuse_space heap profile of the end
// of each phase is written to DIR/<size>-<phase>.pprof.
func BenchmarkPageLiveHeap(b *testing.B) {
	for _, size := range []int{256 << 10, 2 << 20} {
		src := []byte(soakShapedPage(size))
		name := fmt.Sprintf("%dKB", size>>10)
		b.Run(name, func(b *testing.B) {
			const mb = 1 << 20
			defer debug.SetGCPercent(debug.SetGCPercent(10))
			defer func() { phaseHook = nil }()
			profDir := os.Getenv("PLUGIN_LSP_HEAPPROFILE")
			if profDir != "" {
				defer func(r int) { runtime.MemProfileRate = r }(runtime.MemProfileRate)
				runtime.MemProfileRate = 1 << 10 // precise enough to list what is live
			}
			var order []string
			phases := map[string]uint64{}
			var peak, unforced, buildPeak uint64
			above := func(v, base uint64) uint64 { return v - min(v, base) }
			analyse := func(hook func(p string, base uint64)) (base, top, kept uint64) {
				// esbuild's build context stays reachable for 250 ms after
				// a build returns (a goroutine of its own): the base is
				// read once the previous analysis is all gone.
				time.Sleep(300 * time.Millisecond)
				runtime.GC()
				base = liveHeap()
				w := &gcWatch{}
				w.arm()
				if hook != nil {
					phaseHook = func(p string) {
						if p == "build" { // the readings so far are the build's
							w.mu.Lock()
							buildPeak = max(buildPeak, above(w.peak, base))
							w.mu.Unlock()
						}
						runtime.GC()
						live := liveHeap()
						w.mu.Lock()
						w.peak = max(w.peak, live)
						w.mu.Unlock()
						hook(p, above(live, base))
					}
				}
				pages := AnalyzeBundles([]string{"code/p.ts"}, func(string) ([]byte, error) { return src, nil })
				phaseHook = nil
				top = w.stop()
				if len(pages[0].Errors) > 0 || len(pages[0].Calls) != 1 || pages[0].Calls[0].URL.Kind != Prefix {
					b.Fatalf("unexpected analysis: %+v %+v", pages[0].Errors, pages[0].Calls)
				}
				runtime.GC()
				kept = liveHeap()
				runtime.KeepAlive(pages)
				return base, top, kept
			}
			for b.Loop() {
				// The analysis on its own, the collector's readings only.
				base, top, _ := analyse(nil)
				unforced = max(unforced, above(top, base))
				// Then with a collection forced at the end of each phase.
				base, top, kept := analyse(func(p string, live uint64) {
					if _, seen := phases[p]; !seen {
						order = append(order, p)
					}
					phases[p] = max(phases[p], live)
					if profDir != "" {
						f, err := os.Create(filepath.Join(profDir, name+"-"+p+".pprof"))
						if err == nil {
							_ = pprof.Lookup("heap").WriteTo(f, 0)
							f.Close()
						}
					}
				})
				peak = max(peak, above(top, base))
				phases["result"] = max(phases["result"], above(kept, base))
			}
			b.ReportMetric(float64(unforced)/mb, "MB-live-peak")
			b.ReportMetric(float64(peak)/mb, "MB-live-peak-phased")
			b.ReportMetric(float64(buildPeak)/mb, "MB-in-build")
			for _, p := range append(order, "result") {
				b.ReportMetric(float64(phases[p])/mb, "MB-"+p)
			}
		})
	}
}

// TestEsbuildLetsGoOfItsBuild checks what the wait after a large build
// (esbuildKeepsBuild, page.go) relies on: esbuild keeps the context of a
// finished build, with its syntax trees, reachable for a while after
// api.Build returns, and lets go of it within esbuildKeepsBuild. If the
// first reading shows no trees, esbuild no longer keeps them and the wait
// can go; if the second still shows them, the wait is too short.
func TestEsbuildLetsGoOfItsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1 MB page")
	}
	src := soakShapedPage(1 << 20)
	page := filepath.Join(t.TempDir(), "page.ts")
	if err := os.WriteFile(page, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	src = ""
	runtime.GC()
	base := liveHeap()
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{page}, Bundle: true, Write: false, Outdir: "/out",
		Format: api.FormatESModule, Sourcemap: api.SourceMapExternal, LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	runtime.GC()
	held := liveHeap()
	time.Sleep(esbuildKeepsBuild)
	runtime.GC()
	after := liveHeap()
	runtime.KeepAlive(res)
	mb := func(v uint64) float64 { return float64(int64(v)-int64(base)) / (1 << 20) }
	t.Logf("live above the start: right after the build %.1f MB, %v later %.1f MB", mb(held), esbuildKeepsBuild, mb(after))
	if held < base+10<<20 {
		t.Errorf("right after the build only %.1f MB more are live: esbuild no longer keeps its build, and the wait in page.go is not needed", mb(held))
	}
	if after > base+(held-base)/4 {
		t.Errorf("%v after the build %.1f MB are still live (%.1f MB right after): esbuild keeps its build longer than esbuildKeepsBuild", esbuildKeepsBuild, mb(after), mb(held))
	}
}
