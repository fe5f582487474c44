package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
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
	0x05, 0x03, 0x01, 0x00, 0x01, // one memory of one page
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

// bulkWasm is a hand-written module with one memory of 16 pages (1 MiB) that
// exports copy(dst, src, n) (memory.copy) and fill(dst, v, n)
// (memory.fill): no loop anywhere.
var bulkWasm = func() []byte {
	sec := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	name := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	m := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	// types: (i32 i64 i32 i32) → i64, (i32 i32 i32) → []
	m = append(m, sec(1, 0x02, 0x60, 0x04, 0x7F, 0x7E, 0x7F, 0x7F, 0x01, 0x7E, 0x60, 0x03, 0x7F, 0x7F, 0x7F, 0x00)...)
	imp := append(append([]byte{0x01}, name("env")...), name("jsFunctionProxy")...)
	m = append(m, sec(2, append(imp, 0x00, 0x00)...)...)
	m = append(m, sec(3, 0x02, 0x01, 0x01)...)                   // copy, fill: type 1 (indices 1, 2)
	m = append(m, sec(5, 0x01, 0x00, 0x02)...)                   // memory: two pages
	m = append(m, sec(6, 0x01, 0x7F, 0x00, 0x41, 0x00, 0x0B)...) // one global
	exp := append(append([]byte{0x02}, name("copy")...), 0x00, 0x01)
	exp = append(append(exp, name("fill")...), 0x00, 0x02)
	m = append(m, sec(7, exp...)...)
	args := []byte{0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02}
	copyBody := append(append([]byte{}, args...), 0xFC, 0x0A, 0x00, 0x00, 0x0B)
	fillBody := append(append([]byte{}, args...), 0xFC, 0x0B, 0x00, 0x0B)
	code := append([]byte{0x02, byte(len(copyBody))}, copyBody...)
	code = append(append(code, byte(len(fillBody))), fillBody...)
	return append(m, sec(10, code...)...)
}()

// TestFuelChecksChargeBulkMemory: memory.copy and memory.fill pay fuel by
// the bytes they move (one instruction moves up to the whole memory:
// straight-line code of copies made no loop iteration between them), and
// an instance halted before a copy stops there, the copy not done.
func TestFuelChecksChargeBulkMemory(t *testing.T) {
	out, err := addFuelChecks(bulkWasm)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
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
	const n = 64 << 10 // one page: fuelPerTick<<bytesPerFuelShift bytes a tick
	perTick := (fuelPerTick << bytesPerFuelShift) / n
	for _, f := range []string{"copy", "fill"} {
		t0 := ticks.Load()
		for i := 0; i < 2*perTick; i++ {
			if _, err := mod.ExportedFunction(f).Call(ctx, n, 7, n); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		if d := ticks.Load() - t0; d < 1 || d > 2 {
			t.Errorf("%s: %d ticks in %d calls of %d bytes, want 1 or 2", f, d, 2*perTick, n)
		}
	}
	if b, _ := mod.Memory().Read(n, 1); b[0] != 7 {
		t.Fatalf("fill did not fill: %d", b[0])
	}
	// small moves cost no tick of their own: a loop around them pays
	t0 := ticks.Load()
	for i := 0; i < 4*fuelPerTick; i++ {
		mod.ExportedFunction("copy").Call(ctx, 0, n, 1<<bytesPerFuelShift-1)
	}
	if d := ticks.Load() - t0; d != 0 {
		t.Errorf("%d ticks for moves under %d bytes", d, 1<<bytesPerFuelShift)
	}
	m.haltFlag(mod).Store(true)
	for _, f := range []string{"copy", "fill"} {
		// enough bytes that the charge ticks whatever fuel is left
		_, err := mod.ExportedFunction(f).Call(ctx, 0, 9, fuelPerTick<<bytesPerFuelShift) // 512 KiB, in bounds
		if err == nil || !strings.Contains(err.Error(), errHalted.Error()) {
			t.Fatalf("%s after the halt: %v, want %v", f, err, errHalted)
		}
	}
	if b, _ := mod.Memory().Read(0, 1); b[0] != 7 {
		t.Errorf("a halted instance still moved the bytes: %d", b[0])
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

// TestPageImageHasADeadline: a page image is made by evaluating the page
// again off the run's path, in a sandbox no run owns. A top level that
// never ends (the run stopped it at its deadline) gets no image, and an
// image's evaluation that does not end in the run's time is halted: no
// evaluation spins on after its run, and Close (which waits for every
// image being made) returns. 60 s guards a hang, far above the 300 ms.
func TestPageImageHasADeadline(t *testing.T) {
	e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE")})
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	defer func() {
		go func() { e.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(60 * time.Second):
			t.Fatal("Close hangs: a page image's evaluation never ended")
		}
	}()
	spin := page("for (;;) {}\nfunction main() { return 1; }")
	for i := 0; i < 3; i++ { // the first makes the set's image, the others could make the page's
		out := e.Run(context.Background(), Job{Name: "page.js", Code: spin, Timeout: 300 * time.Millisecond})
		if out.Err == nil || out.Err.Kind != KindTimeout {
			t.Fatalf("run %d: %s %+v", i, out.Result, out.Err)
		}
	}
	waitClosing(t, e)
	// The run's evaluation ended, the image's does not: halted at the
	// run's deadline, no image.
	setImg := e.sets.get(methodsKey(nil))
	if setImg == nil {
		t.Fatal("no image for the empty set")
	}
	key := pageKey(methodsKey(nil), "page.js", spin)
	e.makePageImage(key, setImg, "page.js", spin, 300*time.Millisecond)
	waitClosing(t, e)
	if e.pageImgs.get(key) != nil {
		t.Fatal("an image of a page whose top level never ends")
	}
	// and the engine still runs pages
	if out := e.Run(context.Background(), Job{Name: "page.js", Code: page(`function main() { return 2; }`)}); !out.OK || string(out.Result) != "2" {
		t.Fatalf("after: %s %+v", out.Result, out.Err)
	}
}

func waitClosing(t *testing.T, e *Engine) {
	t.Helper()
	done := make(chan struct{})
	go func() { e.closing.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("an image's evaluation never ended")
	}
}
