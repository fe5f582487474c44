package sandbox

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// spinCores keeps every core busy (GOMAXPROCS goroutines spinning) until
// the returned func is called: a loaded machine, as CI's.
func spinCores() (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; !done.Load(); n++ {
			}
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// TestTickBudgetStopsALoop: a busy loop, in the call or in the page's top
// level, is stopped by its tick budget (KindTicks, after exactly MaxTicks
// ticks), not by the wall deadline, which is a minute away.
func TestTickBudgetStopsALoop(t *testing.T) {
	e := engine(t)
	if !e.maker.fuel {
		t.Fatal("the engine has no fuel checks: no tick budget")
	}
	const budget = 300
	for _, src := range []string{
		`function main() { for (;;) {} }`,
		`async function main() { await null; for (;;) {} }`,
		`for (;;) {} function main() { return 1; }`,
	} {
		out := e.Run(context.Background(), Job{Name: "page.js", Code: page(src), Timeout: time.Minute, MaxTicks: budget})
		if out.Err == nil || out.Err.Kind != KindTicks {
			t.Fatalf("%s: want a %s error, got OK=%v %+v", src, KindTicks, out.OK, out.Err)
		}
		if out.Ticks != budget {
			t.Errorf("%s: stopped after %d ticks, want %d", src, out.Ticks, budget)
		}
		t.Logf("%s: %d ticks in %v", src, out.Ticks, out.Duration)
	}
}

// TestTickBudgetIsWork: a run's ticks are the same whatever the load (all
// cores busy or not) and whether its page was evaluated in the run or came
// from a page image; a run that needs fewer ticks than its budget returns.
func TestTickBudgetIsWork(t *testing.T) {
	e := engine(t)
	job := Job{Name: "page.js", Timeout: time.Minute, MaxTicks: 1000,
		// (the nonce: a page no earlier run of this process imaged)
		Code: page(`let x = 0; for (let i = 0; i < 2e5; i++) x += i; function main() { let s = 0; for (let i = 0; i < 3e5; i++) s = (s + i) % 1000; return s; } // ` + strconv.FormatInt(time.Now().UnixNano(), 36))}
	ticks := map[int64]int{}
	record := func(what string, out Outcome) {
		t.Helper()
		if !out.OK {
			t.Fatalf("%s: %+v", what, out.Err)
		}
		ticks[out.Ticks]++
		t.Logf("%s: %d ticks in %v", what, out.Ticks, out.Duration)
	}
	before := e.fromPageImage.Load()
	record("evaluated", e.Run(context.Background(), job))
	if e.fromPageImage.Load() != before {
		t.Fatal("the first run of a new page came from a page image")
	}
	runUntilImaged(t, e, job, func(out Outcome) { record("until imaged", out) })
	defer spinCores()()
	for range 3 {
		before := e.fromPageImage.Load()
		record("from the image, cores busy", e.Run(context.Background(), job))
		if e.fromPageImage.Load() != before+1 {
			t.Fatal("not from the page image")
		}
	}
	if len(ticks) != 1 {
		t.Errorf("the same run took different ticks: %v", ticks)
	}
	for n := range ticks {
		if n == 0 || n >= job.MaxTicks {
			t.Errorf("%d ticks, want some and fewer than %d", n, job.MaxTicks)
		}
	}
}
