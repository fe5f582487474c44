package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
)

// memTrace is a diagnostic aid for the server's memory (docs/lsp.md,
// "Memory"): with PLUGIN_LSP_MEMTRACE=DIR set, `plugin-lsp serve` samples
// its RSS every 20 ms and, each time it passes its highest value by 4 MB,
// writes to DIR a line of the runtime's memory classes (memtrace.log), a
// heap profile and the goroutines (peak-N.heap, peak-N.goroutines) at that
// moment. A heap profile shows the live heap of the last completed
// collection; the goroutines show what was running.
func memTrace(dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	logf, err := os.Create(filepath.Join(dir, "memtrace.log"))
	if err != nil {
		return
	}
	names := []string{
		"/memory/classes/heap/objects:bytes",
		"/memory/classes/heap/unused:bytes",
		"/memory/classes/heap/free:bytes",
		"/memory/classes/heap/released:bytes",
		"/memory/classes/heap/stacks:bytes",
		"/memory/classes/total:bytes",
		"/gc/heap/live:bytes",
		"/gc/heap/goal:bytes",
		"/gc/cycles/total:gc-cycles",
		"/sched/goroutines:goroutines",
	}
	samples := make([]metrics.Sample, len(names))
	for i, n := range names {
		samples[i].Name = n
	}
	go func() {
		var high int64
		n := 0
		for range time.Tick(20 * time.Millisecond) {
			rss := selfRSS()
			if rss < high+4<<20 {
				continue
			}
			high = rss
			n++
			metrics.Read(samples)
			var b strings.Builder
			fmt.Fprintf(&b, "%s peak-%d rss=%.1fMB", time.Now().Format("15:04:05.000"), n, float64(rss)/(1<<20))
			for _, s := range samples {
				short := strings.TrimPrefix(strings.SplitN(s.Name, ":", 2)[0], "/memory/classes/")
				if s.Value.Kind() == metrics.KindUint64 {
					v := s.Value.Uint64()
					if strings.HasSuffix(s.Name, ":bytes") {
						fmt.Fprintf(&b, " %s=%.1fMB", short, float64(v)/(1<<20))
					} else {
						fmt.Fprintf(&b, " %s=%d", short, v)
					}
				}
			}
			fmt.Fprintln(logf, b.String())
			for _, p := range []string{"heap", "goroutine"} {
				f, err := os.Create(filepath.Join(dir, fmt.Sprintf("peak-%d.%s", n, p)))
				if err != nil {
					continue
				}
				debug := 0
				if p == "goroutine" {
					debug = 1
				}
				_ = pprof.Lookup(p).WriteTo(f, debug)
				f.Close()
			}
		}
	}()
}

// selfRSS is the process's resident set in bytes (0 without /proc).
func selfRSS() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}
