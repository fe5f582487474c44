package broker

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The run's budget of response bytes in flight: a reservation that does
// not fit waits for a release, a lone one always fits, and the run's end
// stops the wait.
func TestInflightBudget(t *testing.T) {
	b := newBudget(10)
	ctx := context.Background()
	if err := b.reserve(ctx, 8); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { got <- b.reserve(ctx, 8) }()
	select {
	case err := <-got:
		t.Fatalf("a reservation over the budget did not wait (%v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	h := &hold{b: b, n: 8}
	h.resize(3) // the body was shorter than announced: 3 + 8 > 10, still waits
	select {
	case <-got:
		t.Fatal("proceeded over the budget")
	case <-time.After(50 * time.Millisecond):
	}
	h.release()
	h.release() // idempotent
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if b.used != 8 {
		t.Fatalf("used %d, want 8", b.used)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() { got <- b.reserve(cctx, 5) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("the run's end did not stop the wait: %v", err)
	}
	big := newBudget(4)
	if err := big.reserve(ctx, 100); err != nil { // alone: always fits
		t.Fatal(err)
	}
}
