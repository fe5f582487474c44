package sandbox

import (
	"context"
	"testing"
	"time"
)

// TestHashSkip: after the first engine, qjs's compiled-module key is the
// marker's hash (so runtimes skip re-hashing 1 MB), and runtimes made from
// the marker are the patched module: the memory cap holds.
func TestHashSkip(t *testing.T) {
	e := engine(t)
	if !e.marker.Load() {
		t.Fatalf("the engine does not use the marker (key %x, patched %x)", qjsCachedBytesHash, fnv64a(e.wasm))
	}
	if qjsCachedBytesHash != fnv64a(wasmMarker) {
		t.Fatalf("qjs key %x, want the marker's %x", qjsCachedBytesHash, fnv64a(wasmMarker))
	}
	// One allocation past the cap fails at once in the patched module
	// (the unpatched one would grow to 160 MiB and return 160).
	out := e.Run(context.Background(), Job{Name: "page.js", Code: page(`function main() { return new Uint8Array(160 << 20).length >> 20 }`), Timeout: 10 * time.Second})
	if out.OK || out.Err.Kind != KindMemory {
		t.Fatalf("a 160 MiB allocation: %s %+v", out.Result, out.Err)
	}
	out = e.Run(context.Background(), Job{Name: "page.js", Code: page(`function main() { return new Uint8Array(16 << 20).length >> 20 }`), Timeout: 10 * time.Second})
	if !out.OK || string(out.Result) != "16" {
		t.Fatalf("a 16 MiB allocation: %s %+v", out.Result, out.Err)
	}
}
