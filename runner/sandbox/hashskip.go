package sandbox

import (
	"hash/fnv"
	"sync"
	_ "unsafe" // go:linkname to qjs's compiled-module key
)

// Every qjs.New re-hashes the module bytes it is given (FNV-64a over the
// 1 MB wasm, ~0.9 ms, a fifth of a prepared runtime) to decide whether its
// process-wide compiled module still matches. After the process's first
// New has compiled our patched module, the key qjs compares against is
// replaced by the hash of a 1-byte marker, and later runtimes pass the
// marker: the comparison still runs, on one byte.
//
// Why this cannot run a different module: the marker's hash only ever
// matches the key we wrote, right after the patched module was compiled.
// If anything else in the process makes qjs compile another module (a
// qjs.New elsewhere), the key changes, the marker no longer matches, qjs
// tries to compile the marker and fails, and prepare falls back to the
// full patched bytes (slower, never unpatched). TestHashSkip checks the key
// is what we expect, and fails loudly if a qjs upgrade renames it.
//
//go:linkname qjsCachedBytesHash github.com/fastschema/qjs.cachedBytesHash
var qjsCachedBytesHash uint64

// wasmMarker stands for the compiled patched module once the key is set.
var wasmMarker = []byte{0}

var hashSkip struct {
	once sync.Once
	ok   bool
}

func fnv64a(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// enableHashSkip runs once per process, right after the first qjs.New
// (under qjsFirstNew, before any refiller exists: no other qjs.New can be
// running). It reports whether runtimes may pass wasmMarker.
func enableHashSkip(patched []byte) bool {
	hashSkip.once.Do(func() {
		if qjsCachedBytesHash == fnv64a(patched) {
			qjsCachedBytesHash = fnv64a(wasmMarker)
			hashSkip.ok = true
		}
	})
	return hashSkip.ok
}
