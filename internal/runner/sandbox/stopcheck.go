package sandbox

import (
	"bytes"
	"errors"
	"fmt"
)

// The deadline without a watcher per call.
//
// wazero's WithCloseOnContextDone compiles a check into every loop header
// that leaves the compiled code for Go (an exit to the Go side and back on
// every iteration of every loop, the interpreter's dispatch loop
// included), and it starts a goroutine that watches the context for every
// call into the instance (~90 per run: each one may wake an idle thread).
// Measured on a warm run: ~1 ms of CPU and ~0.6–0.9 ms of wall time.
//
// addFuelChecks gives the same guarantee with one call into Go per
// fuelPerTick loop iterations instead of one per iteration: a new mutable
// i32 global (the fuel, fuelPerTick in every new instance) is decremented
// at the header of every loop; when it reaches 0 the code calls the
// module's own import env.jsFunctionProxy with arguments QuickJS never
// passes (context 0, argc tickArgc), which the engine's host function
// answers as a tick (instanceMaker.tick), and the fuel is refilled. A tick
// of a halted instance (the run's deadline or the caller's context ended:
// Engine.Run's one context.AfterFunc per run) panics, which ends the call
// into the instance as a trap does, and the fuel stays at 0, so every
// later loop iteration ticks again: a busy loop, wherever it spins
// (QuickJS's interpreter loop, a C loop), stops within fuelPerTick
// iterations of the halt.
//
// A loop iteration is not the only unit of work: one memory.copy or
// memory.fill moves up to the whole memory (128 MiB) in a single
// instruction, and QuickJS's memcpy, memmove and memset are those
// instructions. Straight-line code that copies (a template literal or a
// chain of + with 20,000 pieces of 4 KB: 20,000 copies of a growing string;
// 400 copyWithin calls written out; S.repeat(4) 400 times) made ~10 loop
// iterations per copy, so the fuel ran out once every few seconds and a
// run with a 1 s deadline took 20-75 s. So every memory.copy and
// memory.fill becomes a call to a function added to the module
// (bulkCopy, bulkFill) that first takes one unit of fuel per
// bytesPerFuel bytes, ticking as a loop does, and then does the
// instruction: the fuel measures bytes moved as well as iterations, and
// after a halt nothing starts a copy. What a halt can still wait for is
// the one copy in progress, at most the memory cap (~50 ms).
//
// The tick is also what keeps a busy page from starving the process:
// compiled wasm code cannot be preempted by the Go scheduler, so with as
// many busy pages as processors no timer (the deadline's included) could
// fire; in Go, at each tick, a goroutine that ran too long yields.
//
// A run's budget of work (Job.MaxTicks) is counted in ticks: the tick
// that reaches it halts the instance as the deadline does, after the same
// work on any machine. The fuel global is exported (fuelExport), so that a
// run can fill it at the start of its call: the call's count is the same
// whether or not the page's top level ran in that instance.
const (
	fuelExport  = "plugin_lsp_fuel"
	fuelPerTick = 1 << 14
	tickArgc    = 1<<32 - 1
	// bytesPerFuel: a unit of fuel is ~10 ns of a loop iteration in
	// QuickJS's interpreter (fuelPerTick units: ~170 µs between ticks,
	// measured on a loaded 2-core machine); memory.copy moves ~3 GB/s
	// there, 32 bytes in ~10 ns.
	bytesPerFuelShift = 5
)

// addFuelChecks returns a copy of wasm with the fuel global, its checks
// and the two bulk-memory functions. It fails on anything it does not
// fully understand (an opcode outside WebAssembly 2.0, no global,
// function or memory section, no env.jsFunctionProxy of the type qjs declares, a
// bulk-memory instruction on a memory other than 0): the engine then keeps
// wazero's own per-call watcher (instanceMaker.fuel false).
func addFuelChecks(wasm []byte) ([]byte, error) {
	secs, err := sections(wasm)
	if err != nil {
		return nil, err
	}
	var importedGlobals, importedFuncs, globals, funcs, ntypes uint64
	var haveGlobal, haveCode, haveFuncs, haveTypes, haveMemory, haveExports bool
	tick, tickType := int64(-1), uint64(0)
	var types []byte
	for _, s := range secs {
		body := wasm[s.body:s.end]
		switch s.id {
		case 1:
			types = body
			if ntypes, _, err = uleb(body); err != nil {
				return nil, fmt.Errorf("type section: %w", err)
			}
			haveTypes = true
		case 2:
			if importedGlobals, importedFuncs, tick, tickType, err = readImports(body); err != nil {
				return nil, fmt.Errorf("import section: %w", err)
			}
		case 3:
			if funcs, _, err = uleb(body); err != nil {
				return nil, fmt.Errorf("function section: %w", err)
			}
			haveFuncs = true
		case 5:
			haveMemory = true
		case 6:
			if globals, _, err = uleb(body); err != nil {
				return nil, fmt.Errorf("global section: %w", err)
			}
			haveGlobal = true
		case 7:
			if err = checkExports(body); err != nil {
				return nil, fmt.Errorf("export section: %w", err)
			}
			haveExports = true
		case 10:
			haveCode = true
		}
	}
	if !haveGlobal || !haveCode || !haveFuncs || !haveTypes || !haveMemory || !haveExports {
		return nil, errors.New("the module has no type, function, memory, global, export or code section")
	}
	if tick < 0 {
		return nil, errors.New("the module does not import env.jsFunctionProxy")
	}
	if err := checkProxyType(types, tickType); err != nil {
		return nil, err
	}
	g := importedGlobals + globals
	// if fuel <= 0 { drop(jsFunctionProxy(0, 0, tickArgc, 0)); fuel = fuelPerTick }
	ifEmpty := appendUleb([]byte{0x23}, g)
	ifEmpty = append(ifEmpty, 0x41, 0x00, 0x4C, 0x04, 0x40,
		0x41, 0x00, 0x42, 0x00, 0x41, 0x7F, 0x41, 0x00, 0x10)
	ifEmpty = appendUleb(ifEmpty, uint64(tick))
	ifEmpty = appendSleb(append(ifEmpty, 0x1A, 0x41), fuelPerTick)
	ifEmpty = appendUleb(append(ifEmpty, 0x24), g)
	ifEmpty = append(ifEmpty, 0x0B)
	// a loop header: fuel -= 1, then ifEmpty
	check := appendUleb([]byte{0x23}, g)
	check = append(check, 0x41, 0x01, 0x6B, 0x24)
	check = appendUleb(check, g)
	check = append(check, ifEmpty...)
	// bulkCopy and bulkFill (dst, src or value, n: i32): fuel -= n >>
	// bytesPerFuelShift, then ifEmpty, then the instruction itself.
	charge := appendUleb([]byte{0x23}, g)
	charge = append(charge, 0x20, 0x02, 0x41, bytesPerFuelShift, 0x76, 0x6B, 0x24)
	charge = appendUleb(charge, g)
	charge = append(charge, ifEmpty...)
	charge = append(charge, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02)
	copyBody := append(append([]byte{0x00}, charge...), 0xFC, 0x0A, 0x00, 0x00, 0x0B)
	fillBody := append(append([]byte{0x00}, charge...), 0xFC, 0x0B, 0x00, 0x0B)
	bulkType := ntypes // (i32, i32, i32) → (), appended to the types
	copyFn := importedFuncs + funcs
	rw := rewrite{check: check, copyCall: appendUleb([]byte{0x10}, copyFn), fillCall: appendUleb([]byte{0x10}, copyFn+1)}

	out := make([]byte, 0, len(wasm)+len(wasm)/8)
	out = append(out, wasm[:8]...)
	for _, s := range secs {
		body := wasm[s.body:s.end]
		var nb []byte
		switch s.id {
		case 1: // one more type
			_, n, _ := uleb(body)
			nb = appendUleb(nil, ntypes+1)
			nb = append(nb, body[n:]...)
			nb = append(nb, 0x60, 0x03, 0x7F, 0x7F, 0x7F, 0x00)
		case 3: // two more functions of that type
			_, n, _ := uleb(body)
			nb = appendUleb(nil, funcs+2)
			nb = append(nb, body[n:]...)
			nb = appendUleb(appendUleb(nb, bulkType), bulkType)
		case 6: // one more global: (mut i32) (i32.const fuelPerTick)
			_, n, _ := uleb(body)
			nb = appendUleb(nil, globals+1)
			nb = append(nb, body[n:]...)
			nb = appendSleb(append(nb, 0x7F, 0x01, 0x41), fuelPerTick)
			nb = append(nb, 0x0B)
		case 7: // one more export: the fuel global, as fuelExport
			_, n, _ := uleb(body)
			exports, _, _ := uleb(body)
			nb = appendUleb(nil, exports+1)
			nb = append(nb, body[n:]...)
			nb = appendUleb(nb, uint64(len(fuelExport)))
			nb = append(nb, fuelExport...)
			nb = appendUleb(append(nb, 0x03), g)
		case 10:
			if nb, err = rw.code(body, copyBody, fillBody); err != nil {
				return nil, fmt.Errorf("code section: %w", err)
			}
		default:
			out = append(out, wasm[s.at:s.end]...)
			continue
		}
		out = append(out, s.id)
		out = appendUleb(out, uint64(len(nb)))
		out = append(out, nb...)
	}
	return out, nil
}

// rewrite is what addFuelChecks does to every function body: check after
// the block type of every loop, and a call of bulkCopy or bulkFill in
// place of every memory.copy and memory.fill.
type rewrite struct {
	check              []byte
	copyCall, fillCall []byte
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// reader reads a wasm section body; the first error sticks.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("at %d: "+format, append([]any{r.i}, a...)...)
	}
}

func (r *reader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.fail("unexpected end")
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) u32() uint64 {
	if r.err != nil {
		return 0
	}
	v, n, err := uleb(r.b[r.i:])
	if err != nil || v > 1<<32-1 {
		r.fail("bad LEB128 number")
		return 0
	}
	r.i += n
	return v
}

// sleb skips a signed LEB128 number of at most max bytes.
func (r *reader) sleb(max int) {
	for n := 0; n < max; n++ {
		if r.byte()&0x80 == 0 {
			return
		}
	}
	r.fail("bad signed LEB128 number")
}

func (r *reader) skip(n uint64) {
	if r.err == nil && uint64(len(r.b)-r.i) < n {
		r.fail("unexpected end")
	}
	if r.err == nil {
		r.i += int(n)
	}
}

func (r *reader) limits() {
	if r.byte()&1 == 1 {
		r.u32()
		r.u32()
		return
	}
	r.u32()
}

// readImports counts the imported globals and functions and finds the
// function import env.jsFunctionProxy: its index in the function space and
// its type.
func readImports(body []byte) (globals, funcs uint64, proxy int64, proxyType uint64, err error) {
	r := &reader{b: body}
	proxy = -1
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		l := r.u32()
		at := r.i
		r.skip(l)
		module := string(body[at:r.i])
		l = r.u32()
		at = r.i
		r.skip(l)
		name := string(body[at:r.i])
		switch r.byte() {
		case 0: // function
			t := r.u32()
			if module == "env" && name == "jsFunctionProxy" {
				proxy, proxyType = int64(funcs), t
			}
			funcs++
		case 1: // table
			r.byte()
			r.limits()
		case 2: // memory
			r.limits()
		case 3: // global
			r.byte()
			r.byte()
			globals++
		default:
			r.fail("unknown import kind")
		}
	}
	if r.err == nil && r.i != len(body) {
		r.fail("trailing bytes")
	}
	return globals, funcs, proxy, proxyType, r.err
}

// checkExports checks that the export section reads to its end and
// exports nothing under fuelExport.
func checkExports(body []byte) error {
	r := &reader{b: body}
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		l := r.u32()
		at := r.i
		r.skip(l)
		if r.err == nil && string(body[at:r.i]) == fuelExport {
			return errors.New("the module already exports " + fuelExport)
		}
		r.byte() // kind
		r.u32()  // index
	}
	if r.err == nil && r.i != len(body) {
		r.fail("trailing bytes")
	}
	return r.err
}

// checkProxyType checks that type t is (i32, i64, i32, i32) → i64, the
// jsFunctionProxy the tick calls.
func checkProxyType(types []byte, t uint64) error {
	r := &reader{b: types}
	n := r.u32()
	for i := uint64(0); i < n && r.err == nil; i++ {
		at := r.i
		if r.byte() != 0x60 {
			r.fail("not a function type")
			break
		}
		r.skip(r.u32())
		r.skip(r.u32())
		if i == t && r.err == nil {
			if !bytes.Equal(types[at:r.i], []byte{0x60, 4, 0x7F, 0x7E, 0x7F, 0x7F, 1, 0x7E}) {
				return errors.New("env.jsFunctionProxy is not (i32, i64, i32, i32) → i64")
			}
			return nil
		}
	}
	if r.err != nil {
		return r.err
	}
	return errors.New("env.jsFunctionProxy's type is missing")
}

// code rewrites the code section's bodies and appends the extra ones.
func (rw rewrite) code(body []byte, extra ...[]byte) ([]byte, error) {
	r := &reader{b: body}
	n := r.u32()
	out := appendUleb(make([]byte, 0, len(body)+len(body)/6), n+uint64(len(extra)))
	var fn []byte
	for k := n; k > 0 && r.err == nil; k-- {
		size := r.u32()
		start := r.i
		r.skip(size)
		if r.err != nil {
			break
		}
		code := body[start:r.i]
		var err error
		if fn, err = rw.function(fn[:0], code); err != nil {
			return nil, fmt.Errorf("function %d: %w", n-k, err)
		}
		out = appendUleb(out, uint64(len(fn)))
		out = append(out, fn...)
	}
	if r.err == nil && r.i != len(body) {
		r.fail("trailing bytes")
	}
	for _, b := range extra {
		out = appendUleb(out, uint64(len(b)))
		out = append(out, b...)
	}
	return out, r.err
}

func (rw rewrite) function(out, code []byte) ([]byte, error) {
	r := &reader{b: code}
	for n := r.u32(); n > 0 && r.err == nil; n-- { // locals
		r.u32()
		r.byte()
	}
	if r.err != nil {
		return nil, r.err
	}
	from := 0
	for r.i < len(code) && r.err == nil {
		at := r.i
		op := r.byte()
		switch {
		case op == 0x02 || op == 0x03 || op == 0x04: // block, loop, if
			r.blockType()
			if op == 0x03 && r.err == nil {
				out = append(out, code[from:r.i]...)
				out = append(out, rw.check...)
				from = r.i
			}
		case op == 0x0C || op == 0x0D || op == 0x10 || op == 0xD2 ||
			op >= 0x20 && op <= 0x26: // br, br_if, call, ref.func, local.*, global.*, table.get/set
			r.u32()
		case op == 0x0E: // br_table
			for m := r.u32(); m > 0 && r.err == nil; m-- {
				r.u32()
			}
			r.u32()
		case op == 0x11: // call_indirect
			r.u32()
			r.u32()
		case op == 0x1C: // select t*
			r.skip(r.u32())
		case op >= 0x28 && op <= 0x3E: // loads and stores: memarg
			r.u32()
			r.u32()
		case op == 0x3F || op == 0x40 || op == 0xD0: // memory.size, memory.grow, ref.null
			r.byte()
		case op == 0x41:
			r.sleb(5)
		case op == 0x42:
			r.sleb(10)
		case op == 0x43:
			r.skip(4)
		case op == 0x44:
			r.skip(8)
		case op <= 0x01 || op == 0x05 || op == 0x0B || op == 0x0F || op == 0x1A || op == 0x1B ||
			op >= 0x45 && op <= 0xC4 || op == 0xD1: // no immediates
		case op == 0xFC:
			sub := r.prefixFC()
			var call []byte
			switch sub {
			case 10: // memory.copy 0 0
				if r.err == nil && !bytes.Equal(code[r.i-2:r.i], []byte{0, 0}) {
					r.fail("memory.copy between other memories")
				}
				call = rw.copyCall
			case 11: // memory.fill 0
				if r.err == nil && code[r.i-1] != 0 {
					r.fail("memory.fill of another memory")
				}
				call = rw.fillCall
			}
			if call != nil && r.err == nil {
				out = append(out, code[from:at]...)
				out = append(out, call...)
				from = r.i
			}
		case op == 0xFD:
			r.prefixFD()
		default:
			r.fail("opcode %#x", op)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return append(out, code[from:]...), nil
}

func (r *reader) blockType() {
	switch c := r.byte(); c {
	case 0x40, 0x7F, 0x7E, 0x7D, 0x7C, 0x7B, 0x70, 0x6F:
	default: // a type index, signed LEB128 (s33)
		r.i--
		r.sleb(5)
	}
}

// prefixFC skips the immediates of a 0xFC instruction (saturating
// conversions, bulk memory, tables) and returns its number.
func (r *reader) prefixFC() uint64 {
	sub := r.u32()
	switch {
	case sub <= 7:
	case sub == 8: // memory.init
		r.u32()
		r.byte()
	case sub == 9 || sub == 13 || sub >= 15 && sub <= 17:
		r.u32()
	case sub == 10:
		r.byte()
		r.byte()
	case sub == 11:
		r.byte()
	case sub == 12 || sub == 14:
		r.u32()
		r.u32()
	default:
		r.fail("opcode 0xfc %d", sub)
	}
	return sub
}

// prefixFD skips the immediates of a SIMD instruction.
func (r *reader) prefixFD() {
	switch sub := r.u32(); {
	case sub <= 11 || sub == 92 || sub == 93: // loads, store: memarg
		r.u32()
		r.u32()
	case sub == 12 || sub == 13: // v128.const, i8x16.shuffle
		r.skip(16)
	case sub >= 21 && sub <= 34: // extract/replace lane
		r.byte()
	case sub >= 84 && sub <= 91: // lane loads and stores: memarg, lane
		r.u32()
		r.u32()
		r.byte()
	case sub <= 275:
	default:
		r.fail("opcode 0xfd %d", sub)
	}
}
