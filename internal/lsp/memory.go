package lsp

import (
	"runtime/debug"
	"time"
)

// The server's memory policy (docs/lsp.md, "Memory"): analyses are cached
// per plugin and swept after each check (diagnostics.go), freed memory is
// returned to the OS when checks pause, and, when Options.MemoryLimit is
// set, the garbage collector works harder as the heap nears a soft limit.

// idleTrimDelay is how long checks must pause before the server hands
// the memory they freed back to the OS.
const idleTrimDelay = time.Second

// manifestHeapFactor is the heap a check needs per byte of manifest
// (measured: a 25 MB manifest, about 600 MB live). The soft limit is
// raised to this multiple of the largest manifest seen, so that a large
// manifest's check is not slowed by a collector fighting a limit its
// live data is over (four times slower at 100 MiB).
const manifestHeapFactor = 48

// trimWhenIdle (re)arms the idle trim. Analysing a large page allocates
// many times its size; the Go runtime returns freed memory to the OS only
// gradually, so without this a session's RSS stays near its peak for
// minutes after the big file was closed. A forced collection once the
// checks pause costs a few milliseconds of a live heap of tens of MB.
func (s *Server) trimWhenIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.trimTimer != nil {
		s.trimTimer.Stop()
	}
	s.trimTimer = time.AfterFunc(idleTrimDelay, debug.FreeOSMemory)
}

// fitMemoryLimit sets the soft limit before a check of a manifest of
// manifestBytes: Options.MemoryLimit, or more for a large manifest. It
// never lowers a limit it raised. Callers hold s.mu.
func (s *Server) fitMemoryLimit(manifestBytes int64) {
	if s.opts.MemoryLimit <= 0 {
		return
	}
	want := max(s.opts.MemoryLimit, manifestHeapFactor*manifestBytes)
	if want > s.memLimit {
		s.memLimit = want
		debug.SetMemoryLimit(want)
	}
}
