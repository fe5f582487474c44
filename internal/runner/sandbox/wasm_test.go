package sandbox

import (
	"bytes"
	"testing"
)

func TestEmbeddedWasm(t *testing.T) {
	if len(qjsWasm) < 1<<19 || !bytes.HasPrefix(qjsWasm, []byte("\x00asm")) {
		t.Fatalf("qjs.wasmBytes not found through go:linkname (len %d)", len(qjsWasm))
	}
}

func TestPatchMemoryMax(t *testing.T) {
	out, err := patchMemoryMax(qjsWasm, 2048)
	if err != nil {
		t.Fatal(err)
	}
	// the memory section now reads: 1 memory, flags 1 (has max), min, max 2048 (0x80 0x10)
	if !bytes.Contains(out, []byte{5, 5, 1, 1, 3, 0x80, 0x10}) && !bytes.Contains(out, []byte{0x80, 0x10}) {
		t.Fatalf("patched section not found")
	}
	if len(out) != len(qjsWasm)+2 {
		t.Errorf("size %d → %d, want +2 bytes", len(qjsWasm), len(out))
	}
	// idempotent on an already-patched module
	again, err := patchMemoryMax(out, 2048)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("re-patch changed the module: %v", err)
	}
	if _, err := patchMemoryMax([]byte("nope"), 1); err == nil {
		t.Error("accepted garbage")
	}
	if _, err := patchMemoryMax(qjsWasm, 1); err == nil {
		t.Error("accepted a maximum below the minimum")
	}
	// truncated modules fail cleanly
	for _, n := range []int{9, 100, len(qjsWasm) / 2} {
		if _, err := patchMemoryMax(qjsWasm[:n], 2048); err == nil {
			t.Errorf("truncated at %d: no error", n)
		}
	}
}

func TestStripCustomSections(t *testing.T) {
	out, err := stripCustomSections(qjsWasm)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(".debug_line")) || bytes.Contains(out, []byte("producers")) {
		t.Error("a custom section survived")
	}
	if !bytes.Contains(qjsWasm, []byte(".debug_line")) {
		t.Log("qjs.wasm carries no DWARF any more: the strip is a no-op")
	}
	// every non-custom section is kept byte for byte, in order
	var kept, want []byte
	walk := func(w []byte, f func(id byte, sec []byte)) {
		for i := 8; i < len(w); {
			size, n, err := uleb(w[i+1:])
			if err != nil {
				t.Fatal(err)
			}
			end := i + 1 + n + int(size)
			f(w[i], w[i:end])
			i = end
		}
	}
	walk(qjsWasm, func(id byte, sec []byte) {
		if id != 0 {
			want = append(want, sec...)
		}
	})
	walk(out, func(id byte, sec []byte) {
		if id == 0 {
			t.Errorf("custom section left")
		}
		kept = append(kept, sec...)
	})
	if !bytes.Equal(kept, want) {
		t.Error("non-custom sections changed")
	}
	for _, n := range []int{9, 100, len(qjsWasm) / 2} {
		if _, err := stripCustomSections(qjsWasm[:n]); err == nil {
			t.Errorf("truncated at %d: no error", n)
		}
	}
}
