package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Phase benchmarks of the sandbox layer. Each reports wall ns/op and the
// process's CPU time per op (getrusage: user+system of every thread, the
// background refiller and closer included), which moves far less than
// wall time on a machine shared with other jobs.

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64((cpuTime()-c0).Microseconds())/float64(b.N), "cpu-us/op")
}

// BenchmarkPhaseNewRuntime: what qjs.New did, in the engine's runtime: a
// new instance and QuickJS's runtime and context (New_QJS), then close.
func BenchmarkPhaseNewRuntime(b *testing.B) {
	e := engine(b)
	c0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, mod, _, err := e.maker.newRuntime(context.Background(), e.options(), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		e.maker.forget(mod)
		b.StartTimer()
	}
	reportCPU(b, c0)
}

// BenchmarkPhaseInstantiate: a bare new instance (new linear memory),
// nothing run in it.
func BenchmarkPhaseInstantiate(b *testing.B) {
	e := engine(b)
	c0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mod, err := e.maker.instantiate(context.Background(), 0)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		e.maker.forget(mod)
		b.StartTimer()
	}
	reportCPU(b, c0)
}

// BenchmarkPhasePrepare: a ready sandbox (from the image when the engine
// has one), close not counted.
func BenchmarkPhasePrepare(b *testing.B) {
	e := engine(b)
	c0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sb, err := e.prepare()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		sb.close()
		b.StartTimer()
	}
	reportCPU(b, c0)
}

// BenchmarkPhaseClose: freeing a used sandbox (off the run's path, but
// CPU the next run shares).
func BenchmarkPhaseClose(b *testing.B) {
	e := engine(b)
	c0 := cpuTime()
	var busy time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c1 := cpuTime()
		sb, err := e.prepare()
		if err != nil {
			b.Fatal(err)
		}
		busy += cpuTime() - c1
		b.StartTimer()
		sb.close()
	}
	b.ReportMetric(float64((cpuTime()-c0-busy).Microseconds())/float64(b.N), "cpu-us/op")
}

const benchPage = `var __page = (() => { return { default: async (input) => {
  const r = await http.fetch("https://api.example.com/books/" + input.isbn);
  const b = await r.json();
  console.log("found " + b.title);
  return { type: "stat", value: b.title, label: "Title" };
} }; })();`

var benchFetch = Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`{"status":200,"headers":{"content-type":"application/json"},"body":"{\"title\":\"The Hobbit\"}"}`), nil
}}

// BenchmarkRunPaced: a whole sandbox run of a small tool (one async host
// call, one log line) with the spare ready (paced like an author).
func BenchmarkRunPaced(b *testing.B) {
	benchRun(b, 10*time.Millisecond)
}

// BenchmarkRunBackToBack: the same with no pause between runs.
func BenchmarkRunBackToBack(b *testing.B) {
	benchRun(b, 0)
}

func benchRun(b *testing.B, pause time.Duration) {
	e := engine(b)
	job := Job{Name: "page.js", Code: benchPage, Input: json.RawMessage(`{"isbn":"1"}`), Methods: []Method{benchFetch}}
	if out := e.Run(context.Background(), job); !out.OK {
		b.Fatalf("%+v", out.Err)
	}
	d := make([]time.Duration, 0, b.N)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if pause > 0 {
			b.StopTimer()
			time.Sleep(pause)
			b.StartTimer()
		}
		c1, t0 := cpuTime(), time.Now()
		out := e.Run(context.Background(), job)
		d = append(d, time.Since(t0))
		cpu += cpuTime() - c1
		if !out.OK {
			b.Fatalf("%+v", out.Err)
		}
	}
	b.StopTimer()
	reportPercentiles(b, d)
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/op")
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(d[len(d)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkFetchHandoff: what one sequential host fetch costs beyond the
// host method itself (here an instant canned answer, so everything
// measured is the hand-off: the call out, the goroutine, the wake-up, the
// delivery into the sandbox and the Response object). Reported as the
// difference per fetch between a page making 20 sequential fetches and
// the same page making none.
func BenchmarkFetchHandoff(b *testing.B) {
	e := engine(b)
	mk := func(n int) Job {
		return Job{Name: "page.js", Code: `var __page = (() => ({ default: async (input) => {
  let t = "";
  for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) { const r = await http.fetch("https://api.example.com/books/" + i); t = (await r.json()).title; }
  return t;
} }))();`, Methods: []Method{benchFetch}}
	}
	j0, j20 := mk(0), mk(20)
	var w0, w20, c0, c20 time.Duration
	for _, j := range []Job{j0, j20} {
		if out := e.Run(context.Background(), j); !out.OK {
			b.Fatal(out.Err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, j := range []Job{j0, j20} {
			c1, t0 := cpuTime(), time.Now()
			if out := e.Run(context.Background(), j); !out.OK {
				b.Fatal(out.Err)
			}
			w, c := time.Since(t0), cpuTime()-c1
			if k == 0 {
				w0, c0 = w0+w, c0+c
			} else {
				w20, c20 = w20+w, c20+c
			}
		}
	}
	b.ReportMetric(float64((w20-w0).Microseconds())/20/float64(b.N), "wall-us/fetch")
	b.ReportMetric(float64((c20-c0).Microseconds())/20/float64(b.N), "cpu-us/fetch")
}

// BenchmarkHostCall: the JavaScript side of a host call made 6 frames
// deep in a page (an inline method answering at once): the prelude's
// argument copy, the call's Error and its stack, the Promise. Reports
// CPU per call beyond a run without calls.
func BenchmarkHostCall(b *testing.B) {
	e := engine(b)
	get := Method{Name: "collections.get", Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`1`), nil
	}}
	mk := func(n int) Job {
		return Job{Name: "page.js", Code: page(`async function main() {
  const d = (k, f) => (k === 0 ? f() : d(k - 1, f));
  let t = 0;
  for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) t += await d(4, () => collections.get("c", "k"));
  return t;
}`), Methods: []Method{get}}
	}
	j0, j50 := mk(0), mk(50)
	var c0, c50 time.Duration
	for _, j := range []Job{j0, j50} {
		if out := e.Run(context.Background(), j); !out.OK {
			b.Fatal(out.Err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, j := range []Job{j0, j50} {
			c1 := cpuTime()
			if out := e.Run(context.Background(), j); !out.OK {
				b.Fatal(out.Err)
			}
			if k == 0 {
				c0 += cpuTime() - c1
			} else {
				c50 += cpuTime() - c1
			}
		}
	}
	b.ReportMetric(float64((c50-c0).Microseconds())/50/float64(b.N), "cpu-us/call")
}

// BenchmarkRunPageImage: the small tool's whole run, back to back and
// paced, from its page image against an engine that evaluates the page
// on every run (NoPageImages), side by side in one process.
func BenchmarkRunPageImage(b *testing.B) {
	for _, mode := range []struct {
		name string
		off  bool
	}{{"page-image", false}, {"evaluated", true}} {
		for _, pause := range []time.Duration{0, 5 * time.Millisecond} {
			name := mode.name + "/back-to-back"
			if pause > 0 {
				name = mode.name + "/paced"
			}
			b.Run(name, func(b *testing.B) {
				e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), NoPageImages: mode.off})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				job := Job{Name: "page.js", Code: benchPage, Input: json.RawMessage(`{"isbn":"1"}`), Methods: []Method{benchFetch}}
				for i := 0; i < 20; i++ { // the set's and the page's images
					if out := e.Run(context.Background(), job); !out.OK {
						b.Fatalf("%+v", out.Err)
					}
					e.closing.Wait()
				}
				d := make([]time.Duration, 0, b.N)
				var cpu time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if pause > 0 {
						b.StopTimer()
						time.Sleep(pause)
						b.StartTimer()
					}
					c1, t0 := cpuTime(), time.Now()
					out := e.Run(context.Background(), job)
					d = append(d, time.Since(t0))
					cpu += cpuTime() - c1
					if !out.OK {
						b.Fatalf("%+v", out.Err)
					}
				}
				b.StopTimer()
				reportPercentiles(b, d)
				b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/op")
			})
		}
	}
}
