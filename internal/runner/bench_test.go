package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// TestMain doubles as the child of BenchmarkFirstRunNewProcess: with
// PLUGIN_LSP_CHILD_RUN set, the test binary makes one run in a brand-new
// process (cache dir given) and exits.
func TestMain(m *testing.M) {
	if cache := os.Getenv("PLUGIN_LSP_CHILD_RUN"); cache != "" {
		os.Exit(childRun(cache))
	}
	if os.Getenv("PLUGIN_LSP_CHILD_BIGRESP") != "" {
		os.Exit(bigRespChild())
	}
	os.Exit(m.Run())
}

func childRun(cache string) int {
	r, err := New(Config{CacheDir: cache, Spare: -1, Env: func(string) string { return "" }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer r.Close()
	p, err := checker.Load(checker.OSFS{}, filepath.Join("..", "..", "testdata", "example", "books"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	rec, err := r.Run(context.Background(), Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)})
	if err != nil || !rec.OK {
		fmt.Fprintln(os.Stderr, err, rec)
		return 1
	}
	return 0
}

// cpuTime is the process's CPU time (user+system of every thread: the
// spare refill, the closing of used sandboxes and the GC included). On a
// machine shared with other jobs it moves far less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// schedCounts are the process's goroutines started and GC cycles so far:
// per run, they show the hand-offs between threads and the collector's
// work that wall time on an idle machine pays for.
func schedCounts() (goroutines, gcs uint64) {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

func reportSched(b *testing.B, g0, gc0 uint64) {
	g, gc := schedCounts()
	b.ReportMetric(float64(g-g0)/float64(b.N), "goroutines/op")
	b.ReportMetric(float64(gc-gc0)/float64(b.N), "gcs/op")
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(d[len(d)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkRunWarm: one fresh-sandbox run of a small tool (lookupBook: one
// fixture fetch, one log line) in a warm process, the next sandbox
// prepared ahead. Compile is cached; each run has its own runtime and broker.
func BenchmarkRunWarm(b *testing.B) {
	r := sharedRunner(b)
	p := books(b)
	req := Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)}
	ctx := context.Background()
	if rec, _ := r.Run(ctx, req); !rec.OK {
		b.Fatal(rec.Error)
	}
	d := make([]time.Duration, 0, b.N)
	c0 := cpuTime()
	g0, gc0 := schedCounts()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Pace like an author would (one run, then the editor waits), so
		// the spare is ready: what a user sees is the p50 below.
		b.StopTimer()
		time.Sleep(15 * time.Millisecond)
		b.StartTimer()
		t0 := time.Now()
		rec, err := r.Run(ctx, req)
		d = append(d, time.Since(t0))
		if err != nil || !rec.OK {
			b.Fatal(err, rec.Error)
		}
	}
	b.StopTimer()
	reportCPU(b, c0)
	reportSched(b, g0, gc0)
	reportPercentiles(b, d)
}

// BenchmarkRunBackToBack: runs with no pause: the spare cannot keep up, so
// this is the cost of a runtime made on the spot.
func BenchmarkRunBackToBack(b *testing.B) {
	r := sharedRunner(b)
	req := Request{Plugin: books(b), Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)}
	d := make([]time.Duration, 0, b.N)
	c0 := cpuTime()
	g0, gc0 := schedCounts()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		rec, err := r.Run(context.Background(), req)
		d = append(d, time.Since(t0))
		if err != nil || !rec.OK {
			b.Fatal(err, rec.Error)
		}
	}
	reportCPU(b, c0)
	reportSched(b, g0, gc0)
	reportPercentiles(b, d)
}

// BenchmarkRunParallel: throughput on all cores (GOMAXPROCS goroutines).
func BenchmarkRunParallel(b *testing.B) {
	r := sharedRunner(b)
	req := Request{Plugin: books(b), Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)}
	var fails atomic.Int32
	t0 := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec, err := r.Run(context.Background(), req)
			if err != nil || !rec.OK {
				fails.Add(1)
			}
		}
	})
	if fails.Load() > 0 {
		b.Fatalf("%d runs failed", fails.Load())
	}
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "runs/s")
}

// BenchmarkFirstRunNewProcess: a new process (this test binary, child
// mode) that makes one run, with the compiled-module cache dir already
// filled by an earlier process. Includes process start and exit.
func BenchmarkFirstRunNewProcess(b *testing.B) {
	cache := b.TempDir()
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	child := func() {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), "PLUGIN_LSP_CHILD_RUN="+cache)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	child() // fills the cache
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		child()
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, d)
}

// phaseSamples collects Request.Phases of many runs.
type phaseSamples map[string][]time.Duration

func (s phaseSamples) tell(name string, d time.Duration) { s[name] = append(s[name], d) }

// report reports the median of each phase in µs (PhaseNames' order; the
// sum of the medians next to the median of the whole run).
func (s phaseSamples) report(b *testing.B, total []time.Duration) {
	med := func(d []time.Duration) float64 {
		d = append([]time.Duration(nil), d...)
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)/2].Nanoseconds()) / 1000
	}
	sum := 0.0
	for _, n := range PhaseNames {
		if len(s[n]) == 0 {
			continue
		}
		m := med(s[n])
		sum += m
		b.ReportMetric(m, n+"-µs")
	}
	b.ReportMetric(sum, "sum-µs")
	if len(total) > 0 {
		b.ReportMetric(med(total), "run-µs")
	}
}

// BenchmarkRunPhases: where a warm run of lookupBook goes, phase by phase
// (Request.Phases), paced (a pause before each run, the spare ready) and
// back to back. Medians in µs.
func BenchmarkRunPhases(b *testing.B) {
	for _, mode := range []struct {
		name  string
		pause time.Duration
	}{{"paced", 5 * time.Millisecond}, {"b2b", 0}} {
		b.Run(mode.name, func(b *testing.B) {
			r := sharedRunner(b)
			ph := phaseSamples{}
			req := Request{Plugin: books(b), Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)}
			for i := 0; i < 20; i++ {
				if rec, err := r.Run(context.Background(), req); err != nil || !rec.OK {
					b.Fatal(err, rec.Error)
				}
			}
			req.Phases = ph.tell
			total := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if mode.pause > 0 {
					b.StopTimer()
					time.Sleep(mode.pause)
					b.StartTimer()
				}
				t0 := time.Now()
				rec, err := r.Run(context.Background(), req)
				total = append(total, time.Since(t0))
				if err != nil || !rec.OK {
					b.Fatal(err, rec.Error)
				}
			}
			b.StopTimer()
			ph.report(b, total)
		})
	}
}

// rssBytes is this process's resident set size (Linux /proc/self/statm;
// -1 elsewhere).
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

// BenchmarkRunRSS: RSS over 10,000 back-to-back runner.Run of lookupBook
// (PLUGIN_LSP_RSS_RUNS overrides the count), read after a GC at 0, 1k,
// 5k and 10k runs and reported as rss-MB-at-<n>. Run with -benchtime 1x.
func BenchmarkRunRSS(b *testing.B) {
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("PLUGIN_LSP_RSS_RUNS")); err == nil && v > 0 {
		n = v
	}
	r := sharedRunner(b)
	req := Request{Plugin: books(b), Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`)}
	at := map[int]bool{0: true, 1000: true, 5000: true, 10000: true, n: true}
	for range b.N {
		for i := 0; i <= n; i++ {
			if at[i] {
				runtime.GC()
				mb := float64(rssBytes()) / 1e6
				b.Logf("run %6d: RSS %.1f MB, goroutines %d", i, mb, runtime.NumGoroutine())
				b.ReportMetric(mb, "rss-MB-at-"+strconv.Itoa(i))
			}
			if i == n {
				break
			}
			rec, err := r.Run(context.Background(), req)
			if err != nil || !rec.OK {
				b.Fatal(err, rec.Error)
			}
		}
	}
}
