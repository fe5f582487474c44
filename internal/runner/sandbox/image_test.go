package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// The engine's sandboxes start from the image (instance.go): these tests
// show that the image is in use and that no run sees anything of an
// earlier one.

func TestImageInUse(t *testing.T) {
	e := engine(t)
	if e.img == nil {
		_, err := takeImage(mustPrepare(t, e))
		t.Fatalf("the engine has no image: %v", err)
	}
	if len(e.img.mem) == 0 || len(e.img.mem)%PageSize != 0 {
		t.Fatalf("image of %d bytes", len(e.img.mem))
	}
	t.Logf("image: %d KiB, Math.random state at %#x (context %#x)", len(e.img.mem)>>10, e.img.randomAddr, e.img.ctx)
}

func mustPrepare(t *testing.T, e *Engine) *sandbox {
	t.Helper()
	sb, err := e.prepare()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.close)
	return sb
}

// TestMathRandomFresh: Math.random's state is in the image; every sandbox
// gets its own seed, so two runs never replay the same sequence.
func TestMathRandomFresh(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		out := run(t, `function main() { return [Math.random(), Math.random(), Math.random()]; }`, "")
		if !out.OK {
			t.Fatal(out.Err)
		}
		if seen[string(out.Result)] {
			t.Fatalf("run %d replayed an earlier run's Math.random sequence %s", i, out.Result)
		}
		seen[string(out.Result)] = true
	}
}

// TestNothingCrossesRuns: one run writes a unique marker everywhere a page
// can write (every global binding, every intrinsic's prototype and
// constructor, the global object's prototype chain, strings and typed
// arrays on the heap, a pending timer, a thrown-away closure); the next
// run looks for it through JavaScript, and Go looks for its bytes in the
// whole linear memory of later sandboxes.
func TestNothingCrossesRuns(t *testing.T) {
	var raw [12]byte
	_, _ = rand.Read(raw[:])
	marker := "LEAK" + hex.EncodeToString(raw[:])
	// The marker is made at run time: a page's source is in its page
	// image by design (pageimage.go), what a run writes must be nowhere.
	writer := strings.ReplaceAll(`function writeAll() {
		const M = ["MARKA", "MARKB"].join(""); const G = globalThis; const OP = Object.prototype, AP = Array.prototype, FP = Function.prototype, SP = String.prototype, PP = Promise.prototype, EP = Error.prototype, GP = Object.getPrototypeOf(G), U8 = Uint8Array, ST = setTimeout, DP = Object.defineProperty;
		const names = Object.getOwnPropertyNames(G);
		let wrote = 0;
		for (const n of names) {
			const v = G[n];
			try { G[n] = M; wrote++; } catch (e) {}
			for (const o of [v, v && v.prototype]) {
				if (o === null || (typeof o !== "object" && typeof o !== "function")) continue;
				try { o.__leak = M; wrote++; } catch (e) {}
				try { DP(o, "leak2", { value: M, enumerable: false }); } catch (e) {}
			}
		}
		for (const p of [OP, AP, FP, SP, PP, EP, GP]) {
			try { p.__leak = M; } catch (e) {}
		}
		G.newGlobal = M;
		const heap = [];
		for (let i = 0; i < 2000; i++) heap[i] = M + i;
		G.heap = heap;
		const u = new U8(1 << 16); for (let i = 0; i < u.length; i++) u[i] = M.charCodeAt(i % M.length);
		G.bytes = u;
		ST(() => { G.late = M; }, 60000);
		return wrote;
	}`, "MARKER", marker)
	writer = strings.NewReplacer("MARKA", marker[:6], "MARKB", marker[6:]).Replace(writer)
	reader := strings.ReplaceAll(`const _Set = Set, _ownKeys = Reflect.ownKeys, _gp = Object.getPrototypeOf, _S = String, _G = globalThis;
	function lookAll() {
		const M = ["MARKA", "MARKB"].join("");
		const found = [];
		const look = (where, v) => { try { if (typeof v === "string" && v.indexOf(M) >= 0) found.push(where); } catch (e) {} };
		const seen = new _Set();
		const walk = (where, o, depth) => {
			if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o) || depth > 3) return;
			seen.add(o);
			for (const k of _ownKeys(o)) {
				if (typeof k === "string" && k.indexOf("leak") >= 0) found.push(where + "." + k);
				let v; try { v = o[k]; } catch (e) { continue; }
				look(where + "." + _S(k), v);
				walk(where + "." + _S(k), v, depth + 1);
			}
			walk(where + ".__proto__", _gp(o), depth + 1);
		};
		walk("globalThis", _G, 0);
		for (const k of ["newGlobal", "heap", "bytes", "late"]) if (k in _G) found.push(k);
		return found;
	}`, "MARKER", marker)
	reader = strings.NewReplacer("MARKA", marker[:6], "MARKB", marker[6:]).Replace(reader)
	e := engine(t)
	// The reader finds what the writer wrote when both run in one sandbox.
	c := e.Run(context.Background(), Job{Name: "page.js", Code: page(writer + reader + "function main() { writeAll(); return lookAll(); }"), Timeout: 10 * time.Second})
	if !c.OK || len(c.Result) < 100 || !strings.Contains(string(c.Result), "newGlobal") || !strings.Contains(string(c.Result), "Object.prototype") && !strings.Contains(string(c.Result), "__leak") {
		t.Fatalf("control: the reader does not see the writer's marks in one run: %.300s %+v", c.Result, c.Err)
	}
	for round := 0; round < 3; round++ {
		w := e.Run(context.Background(), Job{Name: "page.js", Code: page(writer + "function main() { return writeAll(); }"), Timeout: 10 * time.Second})
		if !w.OK {
			// a timer pending past the return is fine; the result counts
			t.Fatalf("writer: %+v", w.Err)
		}
		r := e.Run(context.Background(), Job{Name: "page.js", Code: page(reader + "function main() { return lookAll(); }"), Timeout: 10 * time.Second})
		if !r.OK || string(r.Result) != "[]" {
			t.Fatalf("round %d: the next run saw the earlier one: %s %+v", round, r.Result, r.Err)
		}
		// The bytes themselves: not in the image, not in a spare, not in a new sandbox.
		if bytes.Contains(e.img.mem, []byte(marker)) {
			t.Fatal("the marker reached the image")
		}
		e.sets.mu.Lock()
		for k, img := range e.sets.m {
			if bytes.Contains(img.mem, []byte(marker)) {
				t.Errorf("the marker reached the image of %s", k)
			}
		}
		e.sets.mu.Unlock()
		for i := 0; i < 2; i++ {
			sb, err := e.get(e.spareImage())
			if err != nil {
				t.Fatal(err)
			}
			mem, ok := sb.mod.Memory().Read(0, sb.mod.Memory().Size())
			if !ok {
				t.Fatal("cannot read the sandbox's memory")
			}
			if bytes.Contains(mem, []byte(marker)) || bytes.Contains(mem, []byte(marker[:12])) {
				t.Fatalf("round %d: a later sandbox's memory holds the marker", round)
			}
			sb.close()
		}
	}
}

// TestMemoryCapFromImage: an instance made from the image keeps the
// patched module's 128 MiB maximum (the unpatched module would grow to
// 160 MiB and return 160).
func TestMemoryCapFromImage(t *testing.T) {
	e := engine(t)
	out := e.Run(context.Background(), Job{Name: "page.js", Code: page(`function main() { return new Uint8Array(160 << 20).length >> 20 }`), Timeout: 10 * time.Second})
	if out.OK || out.Err.Kind != KindMemory {
		t.Fatalf("a 160 MiB allocation: %s %+v", out.Result, out.Err)
	}
	out = e.Run(context.Background(), Job{Name: "page.js", Code: page(`function main() { return new Uint8Array(16 << 20).length >> 20 }`), Timeout: 10 * time.Second})
	if !out.OK || string(out.Result) != "16" {
		t.Fatalf("a 16 MiB allocation: %s %+v", out.Result, out.Err)
	}
}

// TestSparePool: with the pool full, a burst of as many concurrent runs as
// there are spares prepares nothing on a run's path, and the pool fills
// up again afterwards.
func TestSparePool(t *testing.T) {
	e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), Spare: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	full := func() {
		for i := 0; len(e.spare) < cap(e.spare); i++ {
			if i > 3000 {
				t.Fatalf("the pool stays at %d of %d", len(e.spare), cap(e.spare))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for round := 0; round < 3; round++ {
		full()
		before := e.onPath.Load()
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if out := e.Run(context.Background(), Job{Name: "page.js", Code: page(`function main() { return 1 }`)}); !out.OK {
					t.Error(out.Err)
				}
			}()
		}
		wg.Wait()
		if n := e.onPath.Load() - before; n != 0 {
			t.Fatalf("round %d: %d sandboxes were prepared on a run's path with %d spares ready", round, n, cap(e.spare))
		}
	}
	full()
}

// TestSetImage: after a first run with a set of granted methods, later
// runs with that set start from its image (the host objects already
// installed) and behave exactly as before; another set gets its own.
func TestSetImage(t *testing.T) {
	e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), Spare: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	get := Method{Name: "collections.get", Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"v":` + string(args[1]) + `}`), nil
	}}
	job := Job{Name: "page.js", Methods: []Method{get}, Code: page(`async function main() {
		const r = await collections.get("c", 7);
		return { r, http: typeof http, frozen: Object.isFrozen(collections), names: Object.getOwnPropertyNames(collections) };
	}`)}
	want := `{"r":{"v":7},"http":"undefined","frozen":true,"names":["get"]}`
	for i := 0; i < 6; i++ {
		out := e.Run(context.Background(), job)
		if !out.OK || string(out.Result) != want {
			t.Fatalf("run %d: %s %+v", i, out.Result, out.Err)
		}
		if i == 0 {
			e.closing.Wait() // the set's image is made off the first run's path
			if e.sets.get(methodsKey(job.Methods)) == nil {
				t.Fatal("no image for the set after its first run")
			}
		}
	}
	// No methods: nothing granted, from its own image too.
	none := Job{Name: "page.js", Code: page(`function main() { return [typeof collections, typeof http] }`)}
	for i := 0; i < 3; i++ {
		if out := e.Run(context.Background(), none); !out.OK || string(out.Result) != `["undefined","undefined"]` {
			t.Fatalf("no methods, run %d: %s %+v", i, out.Result, out.Err)
		}
		e.closing.Wait()
	}
	if e.sets.get(methodsKey(nil)) == nil {
		t.Fatal("no image for the empty set")
	}
}

// TestSparesFromSetImage: once a set of methods has its image, the spares
// are made from it (a run with that set copies nothing), and a run with
// another set still gets exactly its own host objects: a spare made from
// another image is overwritten with the one the run needs, or replaced
// when its memory is larger than that image.
func TestSparesFromSetImage(t *testing.T) {
	// Set images alone (a page whose top level reads the clock gets no
	// page image and runs from its set's; page images: pageimage_test.go).
	e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), Spare: 2, NoPageImages: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	get := Method{Name: "collections.get", Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"v":` + string(args[1]) + `}`), nil
	}}
	probe := `function main() { return [typeof collections, typeof http, typeof collections === "object" ? Object.getOwnPropertyNames(collections) : null] }`
	withGet := Job{Name: "page.js", Methods: []Method{get}, Code: page(probe)}
	none := Job{Name: "page.js", Code: page(probe)}
	// full waits until the refiller has filled the pool (taking spares
	// directly, as here, does not wake it; a run does).
	full := func() {
		t.Helper()
		for i := 0; len(e.spare) < cap(e.spare); i++ {
			if i > 3000 {
				t.Fatal("the pool does not fill")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	expect := func(job Job, want string) {
		t.Helper()
		if out := e.Run(context.Background(), job); !out.OK || string(out.Result) != want {
			t.Fatalf("%s %+v, want %s", out.Result, out.Err, want)
		}
	}
	for round := 0; round < 3; round++ {
		expect(withGet, `["object","undefined",["get"]]`)
		e.closing.Wait()
		expect(none, `["undefined","undefined",null]`)
		e.closing.Wait()
	}
	getImg, noneImg := e.sets.get(methodsKey(withGet.Methods)), e.sets.get(methodsKey(nil))
	if getImg == nil || noneImg == nil || getImg == noneImg {
		t.Fatal("each set should have its own image")
	}
	// After runs with collections.get, the spares made are from its image
	// (each run takes the oldest spare; one made from the other image may
	// have been in the making when the first of these runs started).
	for i := 0; i < cap(e.spare)+2; i++ {
		full()
		expect(withGet, `["object","undefined",["get"]]`)
		e.closing.Wait()
	}
	full()
	for i := 0; i < cap(e.spare); i++ {
		sb := <-e.spare
		if sb.img != getImg {
			t.Fatalf("spare %d after runs with collections.get is made from %p, not the set's image %p (none %p, base %p, next %p)", i, sb.img, getImg, noneImg, e.img, e.next.Load())
		}
		sb.close()
	}
	// A spare whose memory is larger than the image a run needs is not
	// reused: the run gets a new sandbox, exactly that image. (An engine
	// without a refiller, so that the one spare is the one put there.)
	e2, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), Spare: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	big := &image{mem: append(append([]byte(nil), e2.img.mem...), make([]byte, 4*PageSize)...), rt: e2.img.rt, ctx: e2.img.ctx, randomAddr: e2.img.randomAddr}
	bigSb, err := e2.prepareFrom(big)
	if err != nil {
		t.Fatal(err)
	}
	e2.spare = make(chan *sandbox, 1)
	e2.spare <- bigSb
	got, err := e2.get(e2.img)
	if err != nil {
		t.Fatal(err)
	}
	defer got.close()
	if got == bigSb || got.img != e2.img || got.memorySize() != int64(len(e2.img.mem)) || e2.onPath.Load() != 1 {
		t.Fatalf("get(image) returned a sandbox of %d bytes from %p (image %d bytes at %p)", got.memorySize(), got.img, len(e2.img.mem), e2.img)
	}
	e2.closing.Wait() // bigSb is freed by closeLater
}

// TestRecycledMemoryIsClean: a closed instance's linear memory serves the
// next instance (memPool), and nothing of what the first one wrote, in
// the image's range or past it, is visible in the second: not right after
// the restore, not after the memory grows over the old bytes.
func TestRecycledMemoryIsClean(t *testing.T) {
	e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), Spare: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for empty := false; !empty; {
		select {
		case <-memPool.free:
		default:
			empty = true
		}
	}
	marker := []byte("RECYCLED-MEMORY-MARKER")
	first := mustPrepare(t, e)
	mem := first.mod.Memory()
	if _, ok := mem.Grow(8); !ok {
		t.Fatal("cannot grow")
	}
	for off := uint32(0); off+uint32(len(marker)) <= mem.Size(); off += 4096 {
		mem.Write(off, marker)
	}
	view, _ := mem.Read(0, 1)
	addr := &view[0]
	first.close()

	second := mustPrepare(t, e)
	mem = second.mod.Memory()
	view, _ = mem.Read(0, 1)
	if &view[0] != addr {
		t.Fatal("the closed instance's memory was not reused (memPool)")
	}
	if mem.Size() != uint32(len(e.img.mem)) {
		t.Fatalf("memory of %d bytes, the image has %d", mem.Size(), len(e.img.mem))
	}
	all, _ := mem.Read(0, mem.Size())
	if bytes.Contains(all, marker) || !bytes.Equal(all[:e.img.randomAddr], e.img.mem[:e.img.randomAddr]) {
		t.Fatal("the reused memory is not the image")
	}
	if _, ok := mem.Grow(8); !ok { // over the first instance's bytes, inside the same array
		t.Fatal("cannot grow")
	}
	if view, _ := mem.Read(0, 1); &view[0] != addr {
		t.Fatal("growing moved the memory: the test would not see the old bytes")
	}
	all, _ = mem.Read(0, mem.Size())
	if bytes.Contains(all, marker) {
		t.Fatal("growing the reused memory shows the earlier instance's bytes")
	}
	if tail := all[len(e.img.mem):]; !bytes.Equal(tail, make([]byte, len(tail))) {
		t.Fatal("grown memory is not zero")
	}
	// and a run in a sandbox on recycled memory behaves as any other
	out := e.Run(context.Background(), Job{Name: "page.js", Code: page(`function main() { return new Uint8Array(1 << 20).every((b) => b === 0) }`), Timeout: 10 * time.Second})
	if !out.OK || string(out.Result) != "true" {
		t.Fatalf("%s %+v", out.Result, out.Err)
	}
}
