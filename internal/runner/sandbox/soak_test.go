package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rssBytes reads the resident set size of this process (Linux).
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return -1
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// TestSoak runs PLUGIN_LSP_SOAK runs (e.g. 10000) of a small tool and
// reports RSS and goroutines along the way, with and without closing the
// wazero runtime qjs leaks. Skipped unless the variable is set (it takes
// minutes). scripts/bench-runner.sh runs it.
func TestSoak(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PLUGIN_LSP_SOAK"))
	if n <= 0 {
		t.Skip("set PLUGIN_LSP_SOAK=10000 to run")
	}
	for _, leaky := range []bool{false, true} {
		if leaky && os.Getenv("PLUGIN_LSP_SOAK_LEAKY") == "" {
			continue
		}
		e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE")})
		if err != nil {
			t.Fatal(err)
		}
		e.skipWazeroClose = leaky
		job := Job{Name: "page.js", Timeout: 5 * time.Second, Code: page(`async function main(x) {
			const r = await collections.get("c", "k"); console.log("got", r); return { n: x.n + 1, r }; }`),
			Input: []byte(`{"n":1}`),
			Methods: []Method{{Name: "collections.get", Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{"v":1}`), nil
			}}},
		}
		_ = job
		t.Logf("leaky=%v", leaky)
		g0 := runtime.NumGoroutine()
		var first int64
		start := time.Now()
		for i := 1; i <= n; i++ {
			out := e.Run(context.Background(), job)
			if !out.OK {
				t.Fatalf("run %d: %+v", i, out.Err)
			}
			if i == 500 {
				runtime.GC()
				first = rssBytes()
			}
			if i%(n/10) == 0 {
				runtime.GC()
				t.Logf("run %6d: RSS %6.1f MB  goroutines %d  %.0f runs/s", i, float64(rssBytes())/1e6, runtime.NumGoroutine(), float64(i)/time.Since(start).Seconds())
			}
		}
		runtime.GC()
		last := rssBytes()
		t.Logf("RSS after 500 runs %.1f MB, after %d runs %.1f MB (%+.1f KiB/run)", float64(first)/1e6, n, float64(last)/1e6, float64(last-first)/1024/float64(n-500))
		e.Close()
		time.Sleep(20 * time.Millisecond)
		if g := runtime.NumGoroutine(); g > g0 {
			t.Errorf("goroutines %d → %d", g0, g)
		}
	}
}

// TestSoakPoison repeats the runs that poison a runtime (out of memory,
// stack-overflow trap, deadline in a busy loop, deadline in a sleep) and
// checks the process keeps no memory and no goroutine from them. Guarded
// like TestSoak: PLUGIN_LSP_SOAK_POISON=<rounds>.
func TestSoakPoison(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PLUGIN_LSP_SOAK_POISON"))
	if n <= 0 {
		t.Skip("set PLUGIN_LSP_SOAK_POISON=20 to run")
	}
	e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	jobs := []struct {
		kind string
		job  Job
	}{
		{KindMemory, Job{Timeout: 30 * time.Second, Code: page(`function main() { const a = []; for (;;) a.push(new Float64Array(1 << 20)); }`)}},
		{KindStack, Job{Timeout: 5 * time.Second, Code: page(`function main() { const f = (n) => f(n + 1) + 1; return f(0); }`)}},
		{KindTimeout, Job{Timeout: 30 * time.Millisecond, Code: page(`function main() { for (;;) {} }`)}},
		{KindTimeout, Job{Timeout: 30 * time.Millisecond, Code: page(`function main() { return new Promise(r => setTimeout(r, 1e9)); }`)}},
	}
	g0 := runtime.NumGoroutine()
	var first int64
	for round := 1; round <= n; round++ {
		for _, j := range jobs {
			j.job.Name = "page.js"
			out := e.Run(context.Background(), j.job)
			if out.Err == nil || out.Err.Kind != j.kind {
				t.Fatalf("round %d: want %s, got %+v", round, j.kind, out.Err)
			}
		}
		if round == 2 {
			e.closing.Wait()
			runtime.GC()
			first = rssBytes()
		}
	}
	e.closing.Wait()
	runtime.GC()
	last := rssBytes()
	debug.FreeOSMemory()
	freed := rssBytes()
	t.Logf("%d rounds of 4 poisoned runs: RSS after 2 rounds %.1f MB, after %d %.1f MB, %.1f MB after another debug.FreeOSMemory",
		n, float64(first)/1e6, n, float64(last)/1e6, float64(freed)/1e6)
	if g := runtime.NumGoroutine(); g > g0+1 {
		t.Errorf("goroutines %d → %d", g0, g)
	}
}
