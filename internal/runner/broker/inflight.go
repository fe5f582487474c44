package broker

import (
	"context"
	"fmt"
	"sync"
)

// DefaultMaxInflightBytes is the per-run budget of response bytes held at
// once: read from the network or a fixture and not yet handed to the page
// (Response.Release). A fetch waits, watching the run's context, until its
// response fits; the fetchMaxBytes cap (at most 16 MiB) keeps every single
// response under the budget, so a fetch never waits for ever.
const DefaultMaxInflightBytes = 16 << 20

// budget is a run's in-flight byte budget.
type budget struct {
	max  int64
	mu   sync.Mutex
	used int64
	free chan struct{} // closed (and replaced) on every release: a broadcast
}

func newBudget(max int64) *budget {
	if max <= 0 {
		max = DefaultMaxInflightBytes
	}
	return &budget{max: max, free: make(chan struct{})}
}

// reserve waits until n bytes fit (or nothing else is held), then takes
// them; it fails when ctx ends first.
func (b *budget) reserve(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.used == 0 || b.used+n <= b.max {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		free := b.free
		b.mu.Unlock()
		select {
		case <-free:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %d bytes of the run's %d-byte budget of responses in flight: %w", n, b.max, context.Cause(ctx))
		}
	}
}

func (b *budget) release(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	close(b.free)
	b.free = make(chan struct{})
	b.mu.Unlock()
}

// hold is one reservation; its size may shrink once the body is read.
type hold struct {
	b    *budget
	n    int64
	once sync.Once
}

func (h *hold) resize(n int64) {
	if h == nil || n >= h.n {
		return
	}
	h.b.release(h.n - n)
	h.n = n
}

func (h *hold) release() {
	if h == nil {
		return
	}
	h.once.Do(func() { h.b.release(h.n) })
}

// grow takes n more bytes for the hold (a body that scrubbing made
// longer), waiting as reserve does.
func (h *hold) grow(ctx context.Context, n int64) error {
	if h == nil || n <= 0 {
		return nil
	}
	if err := h.b.reserve(ctx, n); err != nil {
		return err
	}
	h.n += n
	return nil
}
