package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// spinWasm is a hand-written module: one immutable global, and two
// exports: spin (loop br 0 end: never returns) and rec (calls itself
// through a block, no loop instruction in it: unbounded only until the
// stack runs out, so it is cut by the entry check first when the stop is
// set).
var spinWasm = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type: [] → []
	0x03, 0x02, 0x01, 0x00, // one function of type 0
	0x06, 0x06, 0x01, 0x7F, 0x00, 0x41, 0x00, 0x0B, // global 0: i32 const 0
	0x07, 0x08, 0x01, 0x04, 's', 'p', 'i', 'n', 0x00, 0x00, // export "spin" func 0
	0x0A, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0C, 0x00, 0x0B, 0x0B, // loop br 0 end end
}

func TestStopChecksStopABusyLoop(t *testing.T) {
	out, err := addStopChecks(spinWasm)
	if err != nil {
		t.Fatal(err)
	}
	// the checks: at the function's entry and after the loop's block type
	check := []byte{0x23, 0x01, 0x04, 0x40, 0x00, 0x0B}
	if n := bytes.Count(out, check); n != 2 {
		t.Fatalf("%d checks in the module, want 2 (entry and loop)", n)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx) // no WithCloseOnContextDone: nothing else can stop it
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	stop, ok := mod.ExportedGlobal(stopExport).(api.MutableGlobal)
	if !ok || stop.Get() != 0 {
		t.Fatalf("no stop global at 0 (%v)", ok)
	}
	done := make(chan error, 1)
	go func() {
		_, err := mod.ExportedFunction("spin").Call(ctx)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("spin returned before the stop: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	stop.Set(1)
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "unreachable") {
			t.Fatalf("spin ended with %v, want the unreachable trap", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stop global did not stop the loop")
	}
	// a new instance starts with the global at 0
	mod2, err := rt.InstantiateModule(ctx, mustCompile(t, rt, out), wazero.NewModuleConfig().WithName("second"))
	if err != nil {
		t.Fatal(err)
	}
	if v := mod2.ExportedGlobal(stopExport).Get(); v != 0 {
		t.Fatalf("a new instance's stop global is %d", v)
	}
}

func mustCompile(t *testing.T, rt wazero.Runtime, wasm []byte) wazero.CompiledModule {
	t.Helper()
	c, err := rt.CompileModule(context.Background(), wasm)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestStopChecksQJS: the real module gets its checks (every function and
// every loop), still validates, and a module the rewriter does not fully
// understand is refused rather than half rewritten.
func TestStopChecksQJS(t *testing.T) {
	w, err := stripCustomSections(qjsWasm)
	if err != nil {
		t.Fatal(err)
	}
	out, err := addStopChecks(w)
	if err != nil {
		t.Fatalf("qjs.wasm: %v (the engine would fall back to a watcher per call)", err)
	}
	if _, err := wazero.NewRuntime(context.Background()).CompileModule(context.Background(), out); err != nil {
		t.Fatalf("the rewritten module does not validate: %v", err)
	}
	if _, err := addStopChecks(out); err == nil {
		t.Error("a module that exports the stop global already was rewritten again")
	}
	// an opcode outside WebAssembly 2.0 (0xFE: threads) in the body
	bad := append([]byte(nil), spinWasm...)
	bad[len(bad)-4] = 0xFE // was br
	if _, err := addStopChecks(bad); err == nil {
		t.Error("an unknown opcode was accepted")
	}
	for _, n := range []int{9, 20, len(spinWasm) - 3} {
		if _, err := addStopChecks(spinWasm[:n]); err == nil {
			t.Errorf("truncated at %d: no error", n)
		}
	}
}

// TestNoGoroutinePerCall: the engine uses the stop global, so the ~100
// calls into the instance a run makes start no goroutine each (wazero's
// WithCloseOnContextDone starts one per call); the deadline still stops a
// busy loop (TestHostileSandbox: busy-loop, busy-loop-in-microtask).
func TestNoGoroutinePerCall(t *testing.T) {
	e := engine(t)
	if !e.maker.stops {
		t.Fatal("the engine fell back to wazero's watcher per call")
	}
	// 200 host calls, each several calls into the instance
	var calls atomic.Int64
	job := Job{Name: "page.js", Code: page(`function main() {
		for (let i = 0; i < 200; i++) collections.get("k"); return 600; }`),
		Methods: []Method{{Name: "collections.get", Fn: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
			calls.Add(1)
			return json.RawMessage(`"abc"`), nil
		}}}}
	if out := e.Run(context.Background(), job); !out.OK {
		t.Fatalf("%+v", out.Err)
	}
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	before := s[0].Value.Uint64()
	out := e.Run(context.Background(), job)
	metrics.Read(s)
	if !out.OK || calls.Load() != 400 {
		t.Fatalf("%d calls: %s %+v", calls.Load(), out.Result, out.Err)
	}
	t.Logf("run: %s", out.Duration)
	if n := s[0].Value.Uint64() - before; n > 20 {
		t.Fatalf("%d goroutines started during one run of 200 host calls", n)
	}
}
