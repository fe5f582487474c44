package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// spinWasm is a hand-written module: it imports env.jsFunctionProxy (as
// qjs.wasm does) and exports spin, a loop that never ends (loop br 0 end).
var spinWasm = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	// types: [] → [], (i32 i64 i32 i32) → i64
	0x01, 0x0C, 0x02, 0x60, 0x00, 0x00, 0x60, 0x04, 0x7F, 0x7E, 0x7F, 0x7F, 0x01, 0x7E,
	// import env.jsFunctionProxy, type 1
	0x02, 0x17, 0x01, 0x03, 'e', 'n', 'v', 0x0F, 'j', 's', 'F', 'u', 'n', 'c', 't', 'i', 'o', 'n', 'P', 'r', 'o', 'x', 'y', 0x00, 0x01,
	0x03, 0x02, 0x01, 0x00, // one function of type 0 (index 1)
	0x06, 0x06, 0x01, 0x7F, 0x00, 0x41, 0x00, 0x0B, // global 0: i32 const 0
	0x07, 0x08, 0x01, 0x04, 's', 'p', 'i', 'n', 0x00, 0x01, // export "spin" func 1
	0x0A, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0C, 0x00, 0x0B, 0x0B, // loop br 0 end end
}

func TestFuelChecksStopABusyLoop(t *testing.T) {
	out, err := addFuelChecks(spinWasm)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx) // no WithCloseOnContextDone: nothing else can stop it
	defer rt.Close(ctx)
	m := &instanceMaker{}
	var ticks atomic.Int64
	i32, i64 := api.ValueTypeI32, api.ValueTypeI64
	if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			if api.DecodeU32(stack[2]) == tickArgc {
				ticks.Add(1)
			}
			stack[0] = m.proxy(ctx, mod, api.DecodeU32(stack[0]), stack[1], api.DecodeU32(stack[2]), api.DecodeU32(stack[3]))
		}), []api.ValueType{i32, i64, i32, i32}, []api.ValueType{i64}).
		Export("jsFunctionProxy").Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	halted := m.haltFlag(mod)
	done := make(chan error, 1)
	go func() {
		_, err := mod.ExportedFunction("spin").Call(ctx)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("spin returned before the halt: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	if ticks.Load() == 0 {
		t.Fatal("the loop spun without a tick")
	}
	halted.Store(true)
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), errHalted.Error()) {
			t.Fatalf("spin ended with %v, want %v", err, errHalted)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the halt did not stop the loop")
	}
}

// TestFuelChecksQJS: the real module gets its checks and still validates;
// a module the rewriter does not fully understand is refused rather than
// half rewritten (the engine then keeps wazero's watcher per call).
func TestFuelChecksQJS(t *testing.T) {
	w, err := stripCustomSections(qjsWasm)
	if err != nil {
		t.Fatal(err)
	}
	out, err := addFuelChecks(w)
	if err != nil {
		t.Fatalf("qjs.wasm: %v (the engine would fall back to a watcher per call)", err)
	}
	if _, err := wazero.NewRuntime(context.Background()).CompileModule(context.Background(), out); err != nil {
		t.Fatalf("the rewritten module does not validate: %v", err)
	}
	// an opcode outside WebAssembly 2.0 (0xFE: threads) in the body
	bad := append([]byte(nil), spinWasm...)
	bad[len(bad)-4] = 0xFE // was br
	if _, err := addFuelChecks(bad); err == nil {
		t.Error("an unknown opcode was accepted")
	}
	// no env.jsFunctionProxy to tick through
	noImport := bytes.Replace(spinWasm, []byte("jsFunctionProxy"), []byte("jsFunctionProxx"), 1)
	if _, err := addFuelChecks(noImport); err == nil {
		t.Error("a module without env.jsFunctionProxy was accepted")
	}
	for _, n := range []int{9, 20, len(spinWasm) - 3} {
		if _, err := addFuelChecks(spinWasm[:n]); err == nil {
			t.Errorf("truncated at %d: no error", n)
		}
	}
}

// TestBusyPagesOnEveryProcessor: more busy pages than processors at once.
// Compiled wasm code cannot be preempted by the Go scheduler: if nothing
// in a busy loop ever entered Go, no timer could fire and these runs would
// never end. Every run ends at its deadline.
func TestBusyPagesOnEveryProcessor(t *testing.T) {
	e := engine(t)
	n := runtime.GOMAXPROCS(0) + 1
	outs := make(chan Outcome, n)
	for i := 0; i < n; i++ {
		go func() {
			outs <- e.Run(context.Background(), Job{Name: "page.js", Timeout: 300 * time.Millisecond,
				Code: page(`function main() { for (;;) {} }`)})
		}()
	}
	for i := 0; i < n; i++ {
		if out := <-outs; out.Err == nil || out.Err.Kind != KindTimeout {
			t.Fatalf("run %d: %+v", i, out.Err)
		}
	}
}

// TestNoGoroutinePerCall: the engine uses the fuel checks, so the ~100
// calls into the instance a run makes start no goroutine each (wazero's
// WithCloseOnContextDone starts one per call); the deadline still stops a
// busy loop (TestHostileSandbox: busy-loop, busy-loop-in-microtask).
func TestNoGoroutinePerCall(t *testing.T) {
	e := engine(t)
	if !e.maker.fuel {
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
