package explore

import (
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
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
			for !done.Load() {
			}
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// loadPlugin is a plugin with many runs (two enums, 24 planned runs), a
// tool whose fetch is on a branch only one enum value takes, after some
// work, an infinite loop, and a tool that loops for one enum value late in
// its plan (lateLoop), each value fetching its own host, one after the
// loop calling collections.get.
func loadPlugin(t *testing.T) *checker.Plugin {
	return writePlugin(t, map[string]string{
		"plugin.json": `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [
    {"name": "regions", "description": "d", "page": "code/regions.ts", "inputJsonSchema": {"type": "object",
      "properties": {"region": {"enum": ["us", "eu", "ap", "sa", "af", "me", "oc", "an", "zz"]}, "tier": {"enum": ["free", "pro", "team", "corp"]}, "beta": {"type": "boolean"}},
      "required": ["region", "tier"]}},
    {"name": "loop", "description": "d", "page": "code/loop.ts", "inputJsonSchema": {"type": "object", "properties": {"n": {"enum": [1, 2, 3, 4, 5, 6, 7, 8]}}}},
    {"name": "late", "description": "d", "page": "code/late.ts", "inputJsonSchema": {"type": "object", "properties": {"k": {"enum": ` + lateValues + `}}, "required": ["k"]}}],
  "capabilities": {"host": ["http.fetch", "collections.get"], "fetch": ["api.example.com"]}}`,
		"code/regions.ts": `
// some work on every run, more on the one branch
const work = (n: number) => { let s = 0; for (let i = 0; i < n; i++) s = (s + i * 7) % 1009; return s; };
export default async function t(input: { region: string; tier: string; beta?: boolean }) {
  work(5e4);
  await http.fetch("https://api.example.com/" + input.region + "/" + input.tier);
  if (input.region === "zz") {
    const s = work(1.2e6); // the run: ~1,600 ticks of the 2,000
    await http.fetch("https://" + ["only", "zz", "example", "com"].join(".") + "/" + (s % 2));
  }
  if (input.beta) await http.fetch("https://" + ["beta", "example", "com"].join(".") + "/");
  return "ok";
}`,
		"code/loop.ts": `export default async function () { await http.fetch("https://" + ["loop", "example", "com"].join(".") + "/"); for (;;) {} }`,
		"code/late.ts": `
export default async function (input: { k: string }) {
  await http.fetch("https://" + input.k + ".example.com/");
  if (input.k === "` + lateLoop + `") for (;;) {}
  if (input.k === "g") await collections.get("notes", "k");
  return input.k;
}`,
	})
}

// The late tool's values, in the order of its plan (the base input, then
// one run per other value): it loops on lateLoop, the 5th run.
const (
	lateValues = `["a", "b", "c", "d", "loops", "e", "f", "g"]`
	lateLoop   = "loops"
)

// TestSameFindingsUnderLoad (issue 29): the same plugin explored with
// every core busy gives the same explorations, field for field, as on a
// quiet machine, and every one is whole: the one-enum-value branch is
// reached, the loop tool is bounded by its budget of work, nothing is cut.
// With wall-time budgets (a 500 ms run deadline, 4 s per tool, run slots
// shared with the loop's runs) the loaded exploration lost runs.
func TestSameFindingsUnderLoad(t *testing.T) {
	explorer(t) // skips in -short
	p := loadPlugin(t)
	explore := func() map[string]*checker.Exploration {
		x, err := New(Options{CacheDir: testCache()}) // no cache shared between the two
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		start := time.Now()
		ex := x.Plugin(context.Background(), p)
		t.Logf("explored in %v", time.Since(start))
		return ex
	}
	quiet := explore()
	stop := spinCores()
	busy := explore()
	stop()
	for _, name := range []string{"regions", "loop"} {
		q, b := quiet[name], busy[name]
		if q == nil || b == nil {
			t.Fatalf("%s: not explored (quiet %v, busy %v)", name, q, b)
		}
		if q.Cut || b.Cut {
			t.Errorf("%s: cut by a backstop (quiet %v, busy %v)", name, q.Cut, b.Cut)
		}
		if !reflect.DeepEqual(q, b) {
			t.Errorf("%s: explored differently under load:\nquiet %s\nbusy  %s", name, dump(q), dump(b))
		}
	}
	if e := quiet["regions"]; e != nil {
		got := strings.Join(hostsAt(e), " ")
		if !strings.Contains(got, "only.zz.example.com") || !strings.Contains(got, "beta.example.com") || !e.Complete {
			t.Errorf("regions: want the zz and beta branches reached, every run finished; got %s", dump(e))
		}
	}
	if e := quiet["loop"]; e != nil && (e.Complete || e.Stopped != 1 || e.Runs != 1 || strings.Join(hostsAt(e), " ") != "loop.example.com") {
		t.Errorf("loop: want its fetch, its exploration stopped after its first run; got %s", dump(e))
	}
	// late: the runs before the looping one and the looping one count, none
	// after it (e, f, g finish at once, often before the loop is stopped,
	// and are discarded all the same); no response variants
	if e := quiet["late"]; e != nil {
		want := "a.example.com b.example.com c.example.com d.example.com " + lateLoop + ".example.com"
		if got := strings.Join(hostsAt(e), " "); got != want || e.Stopped != 5 || e.Runs != 5 || e.Complete ||
			strings.Join(e.Methods, " ") != "http.fetch" {
			t.Errorf("late: want the fetches of runs 1-5 (%s), http.fetch only, stopped after run 5; got %s", want, dump(e))
		}
	}
}

func dump(e *checker.Exploration) string {
	b, _ := json.Marshal(e)
	return string(b)
}

// loopRun prepares one exploration run of a page that loops after a
// fetch; each call of the func makes it and says how it ended.
func loopRun(t testing.TB, x *Explorer) func() ending {
	p := writePlugin(t, map[string]string{
		"plugin.json": manifest(`{"type": "object"}`, `"api.example.com"`, ""),
		"code/t.ts":   `export default async function t() { await http.fetch("https://api.example.com/"); for (;;) {} }`,
	})
	prog, err := runner.Compile(p, "code/t.ts")
	if err != nil {
		t.Fatal(err)
	}
	_, index, err := runner.PluginFixtures(p)
	if err != nil {
		t.Fatal(err)
	}
	reach := capability.FromManifest(p.Manifest)
	return func() ending {
		res := newResult()
		end, fetched := x.run(context.Background(), p, prog, reach, nil, index,
			planned{input: json.RawMessage(`{}`), mode: modeFixture}, 0, res)
		if !fetched {
			t.Fatal("the run did not reach its fetch")
		}
		return end
	}
}

// TestHonestWorkUnderTheBudget: heavy but finite work a tool may do on
// its input or a response stays far below the budget of work
// (DefaultRunTicks' comment quotes these figures).
func TestHonestWorkUnderTheBudget(t *testing.T) {
	explorer(t) // skips in -short
	x, err := New(Options{CacheDir: testCache(), Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var ticks atomic.Int64
	x.onRun = func(out sandbox.Outcome) { ticks.Store(out.Ticks) }
	for name, body := range map[string]string{
		"json": `const a = []; for (let i = 0; i < 10000; i++) a.push({ id: i, name: "item " + i, tags: ["a", "b"], price: i * 1.5 }); const s = JSON.stringify(a); return s.length + JSON.parse(s).length;`,
		"sort": `const a = []; for (let i = 0; i < 10000; i++) a.push({ id: (i * 7919) % 10007, name: "item " + i }); a.sort((x, y) => x.id - y.id); return a.map((x) => x.name.toUpperCase()).filter((n) => n.endsWith("7")).length;`,
		"urls": `const u = []; for (let i = 0; i < 1000; i++) u.push(new URL("https://api.example.com/v1/items/" + i + "?q=" + encodeURIComponent("a b " + i)).toString()); return u.length;`,
	} {
		p := writePlugin(t, map[string]string{
			"plugin.json": manifest(`{"type": "object"}`, `"api.example.com"`, ""),
			"code/t.ts":   `export default async function t() { await http.fetch("https://api.example.com/"); ` + body + ` }`,
		})
		prog, err := runner.Compile(p, "code/t.ts")
		if err != nil {
			t.Fatal(err)
		}
		_, index, _ := runner.PluginFixtures(p)
		res := newResult()
		end, _ := x.run(context.Background(), p, prog, capability.FromManifest(p.Manifest), nil, index,
			planned{input: json.RawMessage(`{}`), mode: modeFixture}, 0, res)
		n := ticks.Load()
		t.Logf("%s: %d ticks", name, n)
		if end != "" || n > DefaultRunTicks/5 {
			t.Errorf("%s: ended %q after %d ticks; want it to return, under a 5th of the budget (%d)", name, end, n, DefaultRunTicks)
		}
	}
}

// TestLoopStoppedByTicks: an infinite loop is stopped by the run's budget
// of work (the sandbox says KindTicks), not by the wall-time backstop; the
// exploration it bounds is not Complete but not Cut either, and it is kept
// (a second exploration of the same bundle is served from the cache).
func TestLoopStoppedByTicks(t *testing.T) {
	explorer(t) // skips in -short
	x, err := New(Options{CacheDir: testCache(), RunBackstop: 10 * time.Minute, ToolBackstop: 30 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if end := loopRun(t, x)(); end != sandbox.KindTicks {
		t.Fatalf("the loop's run ended %q, want %q", end, sandbox.KindTicks)
	}
	p := writePlugin(t, map[string]string{
		"plugin.json": manifest(`{"type": "object"}`, `"api.example.com"`, ""),
		"code/t.ts":   `export default async function t() { await http.fetch("https://loop.example.com/"); for (;;) {} }`,
	})
	e := x.Tool(context.Background(), p, "t")
	if e == nil || e.Complete || e.Cut || strings.Join(hostsAt(e), " ") != "loop.example.com" {
		t.Fatalf("want the fetch, not Complete, not Cut; got %s", dump(e))
	}
	n := x.Explored()
	if again := x.Tool(context.Background(), p, "t"); again != e || x.Explored() != n {
		t.Errorf("a tick-bounded exploration was not kept: explored %d more", x.Explored()-n)
	}
}

// TestWallCutNotCached: a result a wall-time backstop cut (a tiny one here,
// and no tick budget to speak of) says Cut and is not served from the
// cache: the next call explores again.
func TestWallCutNotCached(t *testing.T) {
	explorer(t) // skips in -short
	x, err := New(Options{CacheDir: testCache(), RunTicks: 1 << 40, RunBackstop: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if end := loopRun(t, x)(); end != sandbox.KindTimeout {
		t.Fatalf("the loop's run ended %q, want the backstop (%q)", end, sandbox.KindTimeout)
	}
	p := writePlugin(t, map[string]string{
		"plugin.json": manifest(`{"type": "object", "properties": {"r": {"enum": ["a", "b"]}}}`, `"api.example.com"`, ""),
		"code/t.ts":   `export default async function t() { await http.fetch("https://loop.example.com/"); for (;;) {} }`,
	})
	for i := range 2 {
		n := x.Explored()
		e := x.Tool(context.Background(), p, "t")
		if e == nil || !e.Cut || e.Complete {
			t.Fatalf("call %d: want Cut and not Complete; got %s", i, dump(e))
		}
		if x.Explored() != n+1 {
			t.Fatalf("call %d: served from the cache (explored %d)", i, x.Explored()-n)
		}
	}
}

// TestLoopingToolBounded (issue 29): a tool that loops on every input
// makes at most Parallel runs to the budget of work, not its plan's 15:
// the first that spends it stops the tool's exploration (runs after it
// cancelled, none started). The result says so (Stopped), is neither
// Complete nor Cut, and is kept.
func TestLoopingToolBounded(t *testing.T) {
	explorer(t) // skips in -short
	const parallel = 3
	x, err := New(Options{CacheDir: testCache(), Parallel: parallel})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var runs, ticked atomic.Int64
	x.onRun = func(out sandbox.Outcome) {
		runs.Add(1)
		if out.Err != nil && out.Err.Kind == sandbox.KindTicks {
			ticked.Add(1)
		}
	}
	p := writePlugin(t, map[string]string{
		"plugin.json": manifest(`{"type": "object", "properties": {"n": {"enum": [1, 2, 3, 4, 5, 6, 7, 8]}}}`, `"api.example.com"`, ""),
		"code/t.ts":   `export default async function t() { await http.fetch("https://loop.example.com/"); for (;;) {} }`,
	})
	start := time.Now()
	e := x.Tool(context.Background(), p, "t")
	t.Logf("%d runs (%d to the budget) in %v", runs.Load(), ticked.Load(), time.Since(start))
	if n := ticked.Load(); n > parallel {
		t.Errorf("%d runs spent the budget of work, want at most Parallel (%d)", n, parallel)
	}
	if n := runs.Load(); n > parallel {
		t.Errorf("%d runs started, want at most Parallel (%d)", n, parallel)
	}
	if e == nil || e.Stopped != 1 || e.Runs != 1 || e.Complete || e.Cut || strings.Join(hostsAt(e), " ") != "loop.example.com" {
		t.Fatalf("want its fetch, stopped after run 1, not Complete, not Cut; got %s", dump(e))
	}
	n := x.Explored()
	if again := x.Tool(context.Background(), p, "t"); again != e || x.Explored() != n {
		t.Errorf("a stopped exploration was not kept: explored %d more", x.Explored()-n)
	}
}
