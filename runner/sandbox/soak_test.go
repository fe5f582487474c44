package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
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
