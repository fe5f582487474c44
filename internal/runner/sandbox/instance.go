package sandbox

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastschema/qjs"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	wsp1 "github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// How a sandbox is made (instead of qjs.New):
//
// qjs.New builds a new wazero runtime per call, compiles the WASI and
// "env" host modules again for it (~20 % of a New), instantiates the
// module and creates QuickJS's runtime and context (New_QJS, ~half of a
// New); the prelude then runs on top (~1.7 ms). Here the engine owns ONE
// wazero runtime (deadline config, compilation cache) with the two host
// modules instantiated once, and the module is compiled once.
//
// Every sandbox is still a new module instance with its own new linear
// memory. The engine's first instance is initialised the slow way (New_QJS,
// the bridge, the prelude) and its whole linear memory is copied into Go
// memory: the image. Every later sandbox is a fresh instance whose memory
// is a copy of that image, so QuickJS, the prelude and the host objects are
// there without running anything (the idea of Wizer's pre-initialisation).
// Nothing of a run is ever written to the image: a run's instance is
// discarded with its memory, and the next run starts from the image again.
//
// What the image freezes and is renewed per instance:
//   - Math.random's state (seeded from the clock in New_QJS): the instance
//     gets 8 fresh random bytes at the offset found when the image was
//     made (findRandomState); if it cannot be found, no image is used.
//   - The Go side: a new qjs.Runtime/Context (unexported fields, set by
//     reflection, qjsinternals.go: newQJSRuntime fails loudly if a qjs
//     upgrade moves them)
//     and a new proxy registry whose ids match the image's (1: the bridge,
//     2: the context), checked when the image is made.
//   - Wasm globals: the module has one, the stack pointer, which is back at
//     its initial value whenever no call is running (as when the image is
//     taken), and a fresh instance starts with that value. The fuel global
//     added by addFuelChecks starts full in every instance.
type instanceMaker struct {
	wrt      wazero.Runtime
	compiled wazero.CompiledModule
	root     string
	proxies  sync.Map // api.Module → qjs.JsFunctionProxy
	mems     sync.Map // api.Module → *linearMemory (recycled by forget)
	stops    sync.Map // api.Module → *stopState (what the instance's next tick does)
	clocks   sync.Map // api.Module → *atomic.Int64: how often the instance read a clock
	// fuel: the module carries the fuel global and its ticks
	// (stopcheck.go), and a halted instance stops at its next tick.
	// Without it, wazero watches the context of every call
	// (WithCloseOnContextDone).
	fuel bool
}

func newInstanceMaker(cacheDir, root string, wasm []byte, fuel bool) (m *instanceMaker, err error) {
	ctx := context.Background()
	var cache wazero.CompilationCache
	if cacheDir == "" {
		cache = wazero.NewCompilationCache()
	} else if cache, err = wazero.NewCompilationCacheWithDir(cacheDir); err != nil {
		return nil, err
	}
	m = &instanceMaker{root: root, fuel: fuel}
	m.wrt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().
		WithCompilationCache(cache).
		// The deadline: the ticks of the fuel checks (stopcheck.go), or,
		// when the module could not be given them, each call watching the
		// instance's own context.
		WithCloseOnContextDone(!fuel))
	defer func() {
		if err != nil {
			m.wrt.Close(ctx)
		}
	}()
	if _, err = wsp1.Instantiate(ctx, m.wrt); err != nil {
		return nil, fmt.Errorf("WASI: %w", err)
	}
	// jsFunctionProxy(jsCtx i32, this i64, argc i32, argv i32) i64, as qjs
	// declares it, without wazero's reflection-based call.
	i32, i64 := api.ValueTypeI32, api.ValueTypeI64
	if _, err = m.wrt.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			stack[0] = m.proxy(ctx, mod, api.DecodeU32(stack[0]), stack[1], api.DecodeU32(stack[2]), api.DecodeU32(stack[3]))
		}), []api.ValueType{i32, i64, i32, i32}, []api.ValueType{i64}).
		Export("jsFunctionProxy").Instantiate(ctx); err != nil {
		return nil, fmt.Errorf("host module: %w", err)
	}
	if m.compiled, err = m.wrt.CompileModule(ctx, wasm); err != nil {
		return nil, fmt.Errorf("compiling qjs.wasm: %w", err)
	}
	return m, nil
}

// proxy is the one host function every instance imports: it hands the call
// to the calling instance's own registry, or, called with no context and
// tickArgc arguments (the fuel checks' call, never QuickJS's), ticks.
func (m *instanceMaker) proxy(ctx context.Context, mod api.Module, jsCtx uint32, this uint64, argc, argv uint32) uint64 {
	if jsCtx == 0 && argc == tickArgc {
		m.tick(mod)
		return 0
	}
	p, ok := m.proxies.Load(mod)
	if !ok {
		panic("sandbox: call from an unknown instance")
	}
	return p.(qjs.JsFunctionProxy)(ctx, mod, jsCtx, this, argc, argv)
}

// errHalted ends a call into a halted instance (its run's deadline passed,
// its caller's context ended or its tick budget was spent); the run
// reports which.
var errHalted = errors.New("sandbox: the run was stopped")

// stopState is what an instance's ticks read and count.
type stopState struct {
	halted atomic.Bool  // set: the next tick stops the instance
	ticks  atomic.Int64 // ticks since the count was last reset
	limit  atomic.Int64 // > 0: the limit-th tick of a count stops the instance
	spent  atomic.Bool  // the limit stopped it (not a halt from outside)
}

// tick runs every fuelPerTick loop iterations of an instance's code. Being
// in Go is what lets the scheduler preempt a goroutine that has run too
// long (compiled wasm code cannot be preempted); a halted instance's call
// ends here, and so does the call of an instance whose count reaches its
// limit (the same amount of work on any machine, however loaded).
func (m *instanceMaker) tick(mod api.Module) {
	v, ok := m.stops.Load(mod)
	if !ok {
		return
	}
	st := v.(*stopState)
	if st.halted.Load() {
		panic(errHalted)
	}
	if n, lim := st.ticks.Add(1), st.limit.Load(); lim > 0 && n >= lim {
		st.spent.Store(true)
		st.halted.Store(true) // every later tick stops it too
		panic(errHalted)
	}
}

// stopOf is the state the ticks of mod read.
func (m *instanceMaker) stopOf(mod api.Module) *stopState {
	v, _ := m.stops.LoadOrStore(mod, new(stopState))
	return v.(*stopState)
}

// haltFlag is the flag that stops mod at its next tick.
func (m *instanceMaker) haltFlag(mod api.Module) *atomic.Bool {
	return &m.stopOf(mod).halted
}

// monoStart is the origin of the instances' monotonic clock.
var monoStart = time.Now()

// clockReads is how often mod read a clock so far.
func (m *instanceMaker) clockReads(mod api.Module) int64 {
	if c, ok := m.clocks.Load(mod); ok {
		return c.(*atomic.Int64).Load()
	}
	return 0
}

func (m *instanceMaker) close() {
	m.wrt.Close(context.Background())
}

// instantiate makes a new module instance (a new, zeroed linear memory) in
// the engine's runtime; nothing in it runs. Its file system root is the
// absent directory; it gets no environment and no arguments.
func (m *instanceMaker) instantiate(ctx context.Context, reserve uint64) (api.Module, error) {
	alloc := &reserved{n: reserve}
	ctx = experimental.WithMemoryAllocator(ctx, alloc)
	// The system clocks, counted: a page image is not made of a page whose
	// top level read the time (pageimage.go).
	reads := new(atomic.Int64)
	mod, err := m.wrt.InstantiateModule(ctx, m.compiled, wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions().
		WithWalltime(func() (int64, int32) {
			reads.Add(1)
			now := time.Now()
			return now.Unix(), int32(now.Nanosecond())
		}, sys.ClockResolution(time.Microsecond)).
		WithNanotime(func() int64 {
			reads.Add(1)
			return time.Since(monoStart).Nanoseconds()
		}, sys.ClockResolution(1)).
		WithSysNanosleep().
		WithFSConfig(wazero.NewFSConfig().WithDirMount(m.root, "/")))
	if err == nil {
		m.clocks.Store(mod, reads)
		if alloc.lm != nil {
			m.mems.Store(mod, alloc.lm)
		}
	}
	return mod, err
}

// image is a prepared instance's linear memory and where QuickJS's objects
// are in it.
type image struct {
	mem        []byte
	rt, ctx    uint64 // JSRuntime* / JSContext* wrappers returned by New_QJS, QJS_GetContext
	randomAddr uint32 // Math.random's xorshift state
}

// newRuntime wraps an instance in a qjs.Runtime. With img == nil it creates
// QuickJS's runtime and context (New_QJS); otherwise the instance's memory
// becomes a copy of the image and the image's runtime is used as is.
func (m *instanceMaker) newRuntime(ctx context.Context, opts qjs.Option, img *image) (rt *qjs.Runtime, mod api.Module, reg *qjs.ProxyRegistry, err error) {
	var reserve uint64
	if img != nil {
		reserve = uint64(len(img.mem))
	}
	if mod, err = m.instantiate(ctx, reserve); err != nil {
		return nil, nil, nil, err
	}
	reg = qjs.NewProxyRegistry()
	m.proxies.Store(mod, qjsCreateFuncProxy(reg))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", firstLine(fmt.Sprint(r)))
		}
		if err != nil {
			m.forget(mod)
			rt, mod, reg = nil, nil, nil
		}
	}()
	if img != nil {
		if err = restoreImage(mod, img); err != nil {
			return nil, nil, nil, err
		}
	}
	opts.Context = ctx
	opts.ProxyFunction = m.proxy
	if rt, err = newQJSRuntime(mod, m.wrt, opts, reg, img); err != nil {
		return nil, nil, nil, err
	}
	return rt, mod, reg, nil
}

// forget closes an instance and drops its proxy entry.
func (m *instanceMaker) forget(mod api.Module) {
	m.proxies.Delete(mod)
	m.stops.Delete(mod)
	m.clocks.Delete(mod)
	func() {
		defer func() { recover() }()
		mod.Close(context.Background())
	}()
	// Every caller has returned from the instance's last call: its memory
	// can serve another instance (memPool clears what that one sees).
	if lm, ok := m.mems.LoadAndDelete(mod); ok {
		memPool.recycle(lm.(*linearMemory))
	}
}

// newQJSRuntime builds the qjs.Runtime that qjs.New would have built
// around mod (runtime.go: New, initializeRuntime), through reflection on
// its unexported fields (setQJSField, qjsinternals.go).
func newQJSRuntime(mod api.Module, wrt wazero.Runtime, opts qjs.Option, reg *qjs.ProxyRegistry, img *image) (*qjs.Runtime, error) {
	rt := new(qjs.Runtime)
	qctx := &qjs.Context{Context: opts.Context}
	mem := new(qjs.Mem)
	set := setQJSField
	cm := &cachedModule{Module: mod, fns: map[string]*pooledFunction{}}
	malloc, free := cm.ExportedFunction("malloc"), cm.ExportedFunction("free")
	if malloc == nil || free == nil {
		return nil, errors.New("qjs.wasm exports no malloc/free")
	}
	// The exports every run calls are made now, while the spare is
	// prepared: each is a wazero function with its own 10 KiB stack, and
	// made on first use they cost a run ~0.1 ms.
	for _, name := range runExports {
		cm.ExportedFunction(name)
	}
	for _, s := range []struct {
		obj  any
		name string
		v    any
	}{
		{mem, "mem", mod.Memory()},
		{rt, "wrt", wrt},
		{rt, "module", api.Module(cm)},
		{rt, "malloc", malloc},
		{rt, "free", free},
		{rt, "mem", mem},
		{rt, "option", opts},
		{rt, "context", qctx},
		{rt, "registry", reg},
		{qctx, "runtime", rt},
	} {
		if err := set(s.obj, s.name, s.v); err != nil {
			return nil, err
		}
	}
	var rtRaw, ctxRaw uint64
	if img != nil {
		rtRaw, ctxRaw = img.rt, img.ctx
	} else {
		rtRaw = rt.Call("New_QJS", uint64(opts.MemoryLimit), uint64(opts.MaxStackSize),
			uint64(opts.MaxExecutionTime), uint64(opts.GCThreshold)).Raw()
	}
	if err := set(rt, "handle", qjs.NewHandle(rt, rtRaw)); err != nil {
		return nil, err
	}
	if img == nil {
		ctxRaw = rt.Call("QJS_GetContext", rtRaw).Raw()
	}
	if err := set(qctx, "handle", qjs.NewHandle(rt, ctxRaw)); err != nil {
		return nil, err
	}
	return rt, nil
}

// findRandomState finds Math.random's xorshift64* state inside QuickJS's
// context struct: the 8 bytes that, stepped once, give the value a call of
// Math.random() returned and then hold the stepped state. It runs on an
// instance whose image was already taken.
func findRandomState(rt *qjs.Runtime, ctxAddr uint32) (uint32, error) {
	const span = 8 << 10
	mem := rt.Mem()
	before, err := mem.Read(ctxAddr, span)
	if err != nil {
		return 0, err
	}
	before = append([]byte(nil), before...)
	v, err := rt.Context().Eval("<random>", qjs.Code("Math.random()"))
	if err != nil {
		return 0, err
	}
	r := v.Float64()
	v.Free()
	after, err := mem.Read(ctxAddr, span)
	if err != nil {
		return 0, err
	}
	found, at := 0, uint32(0)
	for off := 0; off+8 <= span; off += 4 {
		x := binary.LittleEndian.Uint64(before[off:])
		if x == 0 {
			continue
		}
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		if binary.LittleEndian.Uint64(after[off:]) != x {
			continue
		}
		if math.Float64frombits((x*0x2545F4914F6CDD1D)>>12|1023<<52)-1.0 == r {
			found++
			at = ctxAddr + uint32(off)
		}
	}
	if found != 1 {
		return 0, fmt.Errorf("Math.random's state not found in the context (%d candidates)", found)
	}
	return at, nil
}

// cachedModule is the instance as qjs sees it. qjs looks every export up
// by name on every call (runtime.go: call), and each lookup makes a new
// wazero function with its own new stack: ~10 % of a run's CPU. Here each
// name's functions are kept and reused. A wazero function must not be
// called again before its call returns, and qjs's calls nest (a host call
// inside QJS_Eval calls exports again), so each name keeps a free list: a
// nested call takes another function.
type cachedModule struct {
	api.Module
	mu  sync.Mutex
	fns map[string]*pooledFunction
}

func (m *cachedModule) ExportedFunction(name string) api.Function {
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.fns[name]; ok {
		return f
	}
	first := m.Module.ExportedFunction(name)
	if first == nil {
		return nil
	}
	f := &pooledFunction{Function: first, m: m.Module, name: name, idle: []api.Function{first}}
	m.fns[name] = f
	return f
}

// runExports are the exports qjs calls during every run (evaluating the
// page and the glue, the bridge's arguments and answers).
var runExports = []string{
	"QJS_CreateEvalOption", "QJS_Eval", "QJS_FreeValue", "QJS_IsError",
	"JS_HasException", "JS_ToBool", "JS_NewUndefined", "JS_FreeValue",
	"QJS_CloneValue", "QJS_ToCString", "QJS_NewString",
}

type pooledFunction struct {
	api.Function // Definition, from the first one made
	m            api.Module
	name         string
	mu           sync.Mutex
	idle         []api.Function
}

func (f *pooledFunction) take() api.Function {
	f.mu.Lock()
	if n := len(f.idle); n > 0 {
		g := f.idle[n-1]
		f.idle = f.idle[:n-1]
		f.mu.Unlock()
		return g
	}
	f.mu.Unlock()
	return f.m.ExportedFunction(f.name)
}

func (f *pooledFunction) put(g api.Function) {
	f.mu.Lock()
	f.idle = append(f.idle, g)
	f.mu.Unlock()
}

func (f *pooledFunction) Call(ctx context.Context, params ...uint64) ([]uint64, error) {
	g := f.take()
	defer f.put(g)
	return g.Call(ctx, params...)
}

func (f *pooledFunction) CallWithStack(ctx context.Context, stack []uint64) error {
	g := f.take()
	defer f.put(g)
	return g.CallWithStack(ctx, stack)
}

// reserved allocates an instance's linear memory with room for n bytes at
// once, so that growing it to the image's size does not copy it. The
// buffer is a closed instance's when memPool has one (no new ~1 MiB
// allocation per run for the garbage collector to chase). Every byte an
// instance can see is zero or was written by it or by the image restore: a
// reused buffer's old bytes are cleared as the memory grows over them
// (Reallocate), before anything runs in the instance.
type reserved struct {
	n  uint64
	lm *linearMemory // the memory made, for forget to recycle
}

func (r *reserved) Allocate(capacity, limit uint64) experimental.LinearMemory {
	c := max(r.n, capacity)
	// Room up to a pooled buffer's size: a run that grows its memory a
	// little stays in the buffer, which goes back to memPool; one that
	// grows past it moves to its own mapping (Reallocate).
	c = min(max(c, maxPooledMemoryBytes), limit)
	if b, dirty := memPool.get(c); b != nil {
		// The first n bytes are overwritten by the image (restoreImage)
		// before anything runs in the instance: clearing them first
		// would be a second pass over ~1 MiB per sandbox.
		r.lm = &linearMemory{buf: b[:0], dirty: dirty, limit: limit, restored: int(min(r.n, c))}
	} else {
		r.lm = &linearMemory{buf: make([]byte, 0, c), limit: limit}
	}
	return r.lm
}

type linearMemory struct {
	buf []byte
	// dirty: buf[:dirty] may hold an earlier instance's bytes (a pooled
	// buffer); they are cleared before the memory grows over them, except
	// buf[:restored], which the image overwrites before anything runs.
	dirty    int
	restored int
	freed    bool // wazero closed the instance
	// mapping is the memory's own mapping once it grew past its Go buffer
	// (buf is then a prefix of it); nil while buf is a Go slice.
	mapping []byte
	limit   uint64 // the memory's maximum
}

// Reallocate grows the memory to size bytes. Within the buffer's capacity
// (the image's size and some room, from a pooled buffer when there was
// one) it only clears what an earlier instance left there. Past it, the
// memory moves once to its own anonymous mapping of the memory's maximum
// (newMapping, outside the Go heap) and grows there without copying
// again: a run that reads big responses neither leaves 40 and 58 MiB
// copies of its memory to the collector nor raises the collector's goal,
// and its pages go back to the system when it is closed. Where there is
// no mapping (Windows, or mmap failed), the Go slice grows.
func (l *linearMemory) Reallocate(size uint64) []byte {
	if size <= uint64(cap(l.buf)) {
		if old := max(len(l.buf), l.restored); int(size) > old && old < l.dirty {
			clear(l.buf[old:min(int(size), l.dirty)])
		}
		l.buf = l.buf[:size]
		return l.buf
	}
	if l.mapping == nil && size <= l.limit {
		if m := newMapping(l.limit); m != nil {
			copy(m, l.buf)
			l.mapping, l.buf, l.dirty = m, m[:size], 0
			return l.buf
		}
	}
	if l.mapping != nil {
		return nil // over the maximum: memory.grow fails, malloc returns NULL
	}
	// a new array: the instance's bytes are copied, the rest is zero
	l.buf = append(l.buf, make([]byte, size-uint64(len(l.buf)))...)
	l.dirty = 0
	return l.buf
}

// Free is wazero's close of the instance. A Go buffer is recycled only by
// instanceMaker.forget, which runs when no call into the instance can
// still be executing (a deadline closes an instance while its code is
// unwinding, and that code may still write to this memory). A mapping
// (only a memory that grew big has one) is returned to the system here.
func (l *linearMemory) Free() {
	l.freed = true
	if l.mapping != nil {
		unmap(l.mapping)
		l.mapping, l.buf = nil, nil
	}
}

// memPool keeps the linear memories of closed instances for the next
// ones: at most maxPooledMemories buffers of at most maxPooledMemoryBytes
// each, so at most 8 MiB is kept (a buffer that grew further, a memory
// bomb's, goes to the garbage collector). Usually it holds one or two: the
// refiller takes what a run frees.
var memPool = memoryPool{free: make(chan pooledMemory, maxPooledMemories)}

const (
	maxPooledMemories    = 4
	maxPooledMemoryBytes = 2 << 20
)

type memoryPool struct{ free chan pooledMemory }

type pooledMemory struct {
	buf   []byte // at full capacity
	dirty int    // how much of it may hold an instance's bytes
}

// get returns a free buffer of at least c bytes' capacity and how much of
// it is dirty, or nil.
func (p *memoryPool) get(c uint64) ([]byte, int) {
	for i := 0; i < maxPooledMemories; i++ {
		select {
		case m := <-p.free:
			if uint64(cap(m.buf)) >= c {
				return m.buf[:cap(m.buf)], m.dirty
			}
			// too small for this instance: left to the garbage collector
		default:
			return nil, 0
		}
	}
	return nil, 0
}

// recycle puts a closed instance's memory into the pool.
func (p *memoryPool) recycle(l *linearMemory) {
	b, dirty := l.buf, max(len(l.buf), l.dirty)
	l.buf = nil
	if !l.freed || cap(b) == 0 || cap(b) > maxPooledMemoryBytes {
		return
	}
	select {
	case p.free <- pooledMemory{buf: b[:cap(b)], dirty: dirty}:
	default:
	}
}

// restoreImage makes an instance's memory a copy of img, with a fresh
// Math.random state. It writes every byte of the image's range, which a
// recycled buffer did not clear (reserved).
func restoreImage(mod api.Module, img *image) error {
	mem := mod.Memory()
	if need := uint32(len(img.mem)) / PageSize; need > mem.Size()/PageSize {
		if _, ok := mem.Grow(need - mem.Size()/PageSize); !ok {
			return errors.New("cannot grow the instance's memory to the image's size")
		}
	}
	if !mem.Write(0, img.mem) {
		return errors.New("cannot write the image")
	}
	var seed [8]byte
	for binary.LittleEndian.Uint64(seed[:]) == 0 {
		_, _ = crand.Read(seed[:])
	}
	if !mem.Write(img.randomAddr, seed[:]) {
		return errors.New("cannot seed Math.random")
	}
	return nil
}

// restore makes a prepared sandbox, in which nothing has run since it was
// restored from the engine's image, a copy of another image of the same
// engine (the same one with host objects installed): as if it had been
// restored from that one.
func (sb *sandbox) restore(img *image) error {
	if img == nil || sb.img == nil {
		return errors.New("no image to restore")
	}
	sb.scratch = 0 // newString's buffer was in the memory replaced
	if err := restoreImage(sb.mod, img); err != nil {
		return err
	}
	sb.img = img
	return nil
}

// setImages are images with a set of host methods installed, by
// methodsKey: at most maxSetImages (~0.4 MiB each), made off a run's path
// in a sandbox where nothing but the prelude and install ever ran.
const maxSetImages = 16

type setImages struct {
	mu      sync.Mutex
	m       map[string]*image
	pending map[string]bool
}

func (s *setImages) get(key string) *image {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[key]
}

// claim reports whether the caller should make key's image.
func (s *setImages) claim(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m, s.pending = map[string]*image{}, map[string]bool{}
	}
	if s.m[key] != nil || s.pending[key] || len(s.m)+len(s.pending) >= maxSetImages {
		return false
	}
	s.pending[key] = true
	return true
}

func (s *setImages) done(key string, img *image) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pending, key)
	if img != nil {
		s.m[key] = img
	}
}

// makeSetImage makes the image of a set of granted methods on its own
// goroutine (Engine.Close waits for it), when the engine has a base image
// and the set has none yet.
func (e *Engine) makeSetImage(key string) {
	select {
	case <-e.done:
		return
	default:
	}
	if e.img == nil || !e.sets.claim(key) {
		return
	}
	e.closing.Add(1)
	go func() {
		defer e.closing.Done()
		var img *image
		defer func() { e.sets.done(key, img) }()
		sb, err := e.prepare()
		if err != nil {
			return
		}
		defer sb.close()
		if sb.install(key) != nil {
			return
		}
		mem, ok := sb.mod.Memory().Read(0, sb.mod.Memory().Size())
		if !ok {
			return
		}
		img = &image{mem: append([]byte(nil), mem...), rt: e.img.rt, ctx: e.img.ctx, randomAddr: e.img.randomAddr}
	}()
}
